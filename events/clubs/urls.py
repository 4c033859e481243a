"""A club's addresses: its public page, stylesheet and logo under ``/c/<club>/``, and its desk
pages under ``/desk/clubs/``."""

from django.urls import path

from events.clubs.views import desk, invitation, logo, public, season

public_routes = [
    path("c/<slug:club_slug>/", public.club_page, name="club"),
    path("c/<slug:club_slug>/style.css", public.club_style, name="club_style"),
    path("c/<slug:club_slug>/logo-<str:version>.png", logo.club_logo, name="club_logo"),
    path("invitations/<str:token>/", invitation.invitation, name="invitation"),
]
# Before the desk's event pages: "clubs" is a word an event's slug could be.
desk_routes = [
    path("desk/clubs/", desk.club_list, name="club_list"),
    path("desk/clubs/new/", desk.club_create, name="club_create"),
    path("desk/clubs/<slug:club_slug>/", desk.club_desk, name="club_desk"),
    path("desk/clubs/<slug:club_slug>/settings/", desk.club_settings, name="club_settings"),
    path("desk/clubs/<slug:club_slug>/logo/", logo.club_logo_upload, name="club_logo_upload"),
    path("desk/clubs/<slug:club_slug>/people/", desk.club_people, name="club_people"),
    path("desk/clubs/<slug:club_slug>/people/add/", desk.role_grant, name="club_role_grant"),
    path("desk/clubs/<slug:club_slug>/invitations/", desk.invitation_send, name="club_invite"),
    path(
        "desk/clubs/<slug:club_slug>/invitations/<int:invitation_id>/withdraw/",
        desk.invitation_withdraw,
        name="club_invitation_withdraw",
    ),
    path(
        "desk/clubs/<slug:club_slug>/people/<int:user_id>/<slug:action>/",
        desk.role_action,
        name="club_role_action",
    ),
    path(
        "desk/clubs/<slug:club_slug>/deletion/<slug:action>/",
        desk.club_deletion,
        name="club_deletion",
    ),
    path("desk/clubs/<slug:club_slug>/owner/", desk.owner_restore, name="club_owner_restore"),
    path("desk/clubs/<slug:club_slug>/season/", season.season_page, name="club_season"),
    path(
        "desk/clubs/<slug:club_slug>/season.<slug:file_format>",
        season.season_download,
        name="club_season_download",
    ),
    path("desk/clubs/<slug:club_slug>/archive.zip", season.club_archive, name="club_archive"),
]
