"""The pages and the forms' actions, split by who uses them: ``director/`` (staff), ``table/`` (a table's link),
``team.py`` and ``team_money.py`` (a team's own page), ``public.py``, ``persons.py``, ``display.py``. A view reads
through selectors and writes through one service, run by ``common.service_run`` (or ``form_saved``,
``run_and_redirect``, ``form_action``).

A form that adds or moves something is taken once: put ``{% form_once %}`` beside ``{% csrf_token %}`` in its
template, and nothing in its view, whose answer on success is a redirect (as every form's here is). A second post
of the same drawn form, a double tap or a resend over a slow network, is then answered with the first's result
(``once.FormOnceMiddleware``). ``tests/tournament/views/test_once.py`` walks every POST view and every template's
forms: a new form without its token, or a new view not walked there, fails it.
"""
