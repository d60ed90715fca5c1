from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.views import director, public

director_patterns = [
    path("", director.dashboard, name="dashboard"),
    path("events/new/", director.event_create, name="event_create"),
    path("events/<slug:event_slug>/", director.event_detail, name="event"),
    path("events/<slug:event_slug>/edit/", director.event_edit, name="event_edit"),
    path("events/<slug:event_slug>/tournaments/new/", director.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/", director.tournament_detail, name="tournament"),
    path("t/<slug:slug>/edit/", director.tournament_edit, name="tournament_edit"),
    path("t/<slug:slug>/rules/", director.tournament_rules, name="tournament_rules"),
    path("t/<slug:slug>/teams/", director.team_list, name="teams"),
    path("t/<slug:slug>/teams/new/", director.team_create, name="team_create"),
    path("t/<slug:slug>/teams/import/", director.team_import, name="team_import"),
    path("t/<slug:slug>/teams/<int:number>/edit/", director.team_edit, name="team_edit"),
    path("t/<slug:slug>/desk/", director.desk, name="desk"),
    path("t/<slug:slug>/desk/<int:number>/", director.desk_action, name="desk_action"),
    path("t/<slug:slug>/rounds/new/", director.round_new, name="round_new"),
    path("t/<slug:slug>/rounds/<int:number>/", director.round_detail, name="round"),
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

urlpatterns = [
    path("", public.home, name="home"),
    path("table/<str:secret>/", public.table_page, name="table"),
    path("manage/", include((director_patterns, "director"))),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("backoffice/", admin.site.urls),
]
