from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.views import director, public, table

director_patterns = [
    path("", director.dashboard, name="dashboard"),
    path("events/new/", director.event_create, name="event_create"),
    path("events/<slug:event_slug>/", director.event_detail, name="event"),
    path("events/<slug:event_slug>/edit/", director.event_edit, name="event_edit"),
    path("events/<slug:event_slug>/archive/", director.event_archive, name="event_archive"),
    path("events/<slug:event_slug>/tournaments/new/", director.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/", director.tournament_detail, name="tournament"),
    path("t/<slug:slug>/edit/", director.tournament_edit, name="tournament_edit"),
    path("t/<slug:slug>/rules/", director.tournament_rules, name="tournament_rules"),
    path("t/<slug:slug>/teams/", director.team_list, name="teams"),
    path("t/<slug:slug>/teams/new/", director.team_create, name="team_create"),
    path("t/<slug:slug>/teams/import/", director.team_import, name="team_import"),
    path("t/<slug:slug>/teams/<int:number>/edit/", director.team_edit, name="team_edit"),
    path("t/<slug:slug>/desk/", director.desk, name="desk"),
    path("t/<slug:slug>/announcements/", director.announcements, name="announcements"),
    path("t/<slug:slug>/announcements/<int:pk>/remove/", director.announcement_remove, name="announcement_remove"),
    path("t/<slug:slug>/desk/<int:number>/", director.desk_action, name="desk_action"),
    path("t/<slug:slug>/rounds/new/", director.round_new, name="round_new"),
    path("t/<slug:slug>/rounds/<int:number>/", director.round_detail, name="round"),
    path("t/<slug:slug>/rounds/<int:number>/live/", director.round_live, name="round_live"),
    path("t/<slug:slug>/rounds/<int:number>/sheets.pdf", director.round_sheets_pdf, name="round_sheets_pdf"),
    path("t/<slug:slug>/standings.pdf", director.standings_pdf, name="standings_pdf"),
    path("t/<slug:slug>/bracket.pdf", director.bracket_pdf, name="bracket_pdf"),
    path("t/<slug:slug>/playoffs/", director.playoffs, name="playoffs"),
    path("t/<slug:slug>/playoffs/seed/", director.playoffs_seed, name="playoffs_seed"),
    path("t/<slug:slug>/playoffs/swap/", director.playoffs_swap, name="playoffs_swap"),
    path("t/<slug:slug>/playoffs/publish/", director.playoffs_publish, name="playoffs_publish"),
    path("t/<slug:slug>/rounds/<int:number>/live/tables/", director.round_live_fragment, name="round_live_fragment"),
    path("t/<slug:slug>/rounds/<int:number>/swap/", director.round_swap, name="round_swap"),
    path("t/<slug:slug>/rounds/<int:number>/move/", director.round_move, name="round_move"),
    path(
        "t/<slug:slug>/rounds/<int:number>/tables/<int:table_number>/sitting/",
        director.round_sitting,
        name="round_sitting",
    ),
    path("t/<slug:slug>/rounds/<int:number>/publish/", director.round_publish, name="round_publish"),
    path("t/<slug:slug>/rounds/<int:number>/discard/", director.round_discard, name="round_discard"),
]

public_patterns = [
    path("e/<slug:event_slug>/", public.event_page, name="event"),
    path("t/<slug:slug>/", public.tournament_home, name="tournament"),
    path("t/<slug:slug>/standings/", public.standings, name="standings"),
    path("t/<slug:slug>/standings/fragment/", public.standings_fragment, name="standings_fragment"),
    path("t/<slug:slug>/draw/", public.draw, name="draw"),
    path("t/<slug:slug>/draw/fragment/", public.draw_fragment, name="draw_fragment"),
    path("t/<slug:slug>/teams/<int:number>/", public.team, name="team"),
    path("t/<slug:slug>/bracket/", public.bracket, name="bracket"),
    path("t/<slug:slug>/bracket/fragment/", public.bracket_fragment, name="bracket_fragment"),
    path("t/<slug:slug>/projector/", public.projector, name="projector"),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("", include((public_patterns, "public"))),
    path("table/<str:secret>/", table.table_page, name="table"),
    path("table/<str:secret>/first-dealer/", table.first_dealer_set, name="table_first_dealer"),
    path("table/<str:secret>/hands/", table.hand_add, name="table_hand_add"),
    path("table/<str:secret>/preview/", table.hand_preview_fragment, name="table_hand_preview"),
    path("table/<str:secret>/hands/<int:sequence>/", table.hand_edit, name="table_hand_edit"),
    path("table/<str:secret>/hands/<int:sequence>/remove/", table.hand_remove, name="table_hand_remove"),
    path("table/<str:secret>/redeal/", table.redeal_add, name="table_redeal"),
    path("table/<str:secret>/penalties/", table.penalty_add, name="table_penalty_add"),
    path("table/<str:secret>/penalties/<int:penalty_id>/remove/", table.penalty_remove, name="table_penalty_remove"),
    path("table/<str:secret>/sign/", table.sheet_sign, name="table_sign"),
    path("table/<str:secret>/history/", table.history, name="table_history"),
    path("manage/", include((director_patterns, "director"))),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("backoffice/", admin.site.urls),
]
