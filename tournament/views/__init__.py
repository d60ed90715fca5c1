"""The pages and the forms' actions, split by who uses them: ``director/`` (staff), ``table/`` (a table's link),
``team.py`` and ``team_money.py`` (a team's own page), ``public.py``, ``persons.py``, ``display.py``. A view reads
through selectors and writes through one service, run by ``common.service_run`` (a refusal said, never a server
error) in one of three shapes, which a view calls itself:

1. a form that saves, on a page that draws it again when refused: ``common.form_saved`` (the refusal beside
   its field; the view redirects on the result);
2. an action posted from a button, with a few fields or none: ``common.form_action`` (back to a page, where
   what happened is said at the top);
3. the table page's sheet forms: ``table.page.sheet_form_run`` (shown again at the field concerned where the
   sheet draws the form, else above the entry area).

A page that draws a form only at times (the team's page) takes shape 1 while it draws it, else shape 2.

A form that adds or moves something is taken once: put ``{% form_once %}`` beside ``{% csrf_token %}`` in its
template, and nothing in its view, whose answer on success is a redirect (as every form's here is). A second post
of the same drawn form, a double tap or a resend over a slow network, is then answered with the first's result
(``once.FormOnceMiddleware``). ``tests/tournament/views/test_once.py`` walks every POST view and every template's
forms: a new form without its token, or a new view not walked there, fails it.
"""
