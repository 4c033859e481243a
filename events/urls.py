from django.urls import path

from events.calendar import views as calendar_views
from events.common.routing import nest
from events.desk.views import (
    checkin as checkin_views,
    competition as competition_views,
    corrections as correction_views,
    downloads as views_export,
    edit as desk_views,
    event as event_views,
    imports as import_views,
    outbox as outbox_views,
    proposals as proposal_views,
    registration as registration_views,
    service_worker as service_worker_views,
    webhooks as webhook_views,
)
from events.live import views as public
from events.series.views import desk as series_desk_views, public as series_views
from events.signups import notify as entry_notify, public_push
from events.signups.views import desk as signup_desk_views, person as entry

app_name = "events"

routes = [
    # public, for phones
    path("", public.index, name="index"),
    path("e/<slug:event_slug>/", public.event, name="event"),
    # series across events
    path("series/", series_views.series_index, name="series_index"),
    path("series/<slug:series_slug>/", series_views.series, name="series_public"),
    path("series/<slug:series_slug>/screen/", series_views.series_screen, name="series_screen"),
    path(
        "series/<slug:series_slug>/players/<int:player_id>/",
        series_views.series_player,
        name="series_player",
    ),
    path(
        "series/<slug:series_slug>/players/<int:player_id>/why/",
        series_views.series_why,
        name="series_why",
    ),
    path(
        "series/<slug:series_slug>/standings.<slug:file_format>",
        series_views.series_download,
        name="series_download",
    ),
    # calendar feeds (issue 31): an event's public times, a player's own behind a signed token
    path("e/<slug:event_slug>/calendar.ics", calendar_views.event_feed, name="calendar_event"),
    path("calendar/<str:token>.ics", calendar_views.player_feed, name="calendar_player"),
    # sign-up before the day (before the competition's route: "sign-up" is a reserved slug)
    path("e/<slug:event_slug>/sign-up/", entry.signup, name="signup"),
    path("e/<slug:event_slug>/sign-up/resend/", entry.signup_resend, name="signup_resend"),
    path("e/<slug:event_slug>/<slug:competition_slug>/", public.competition, name="competition"),
    path("sign-up/<str:token>/", entry.person, name="signup_person"),
    path("sign-up/<str:token>/confirm/", entry.person_confirm, name="signup_confirm"),
    path("sign-up/<str:token>/my-data.json", entry.person_data, name="signup_data"),
    path("sign-up/<str:token>/erase/", entry.person_erase, name="signup_erase"),
    path("sign-up/<str:token>/name/", entry.person_name_shown, name="signup_name_shown"),
    # notifications (issue 31): the choice per event, a browser's push, the one-tap stop
    path(
        "sign-up/<str:token>/notify/<int:event_id>/",
        entry_notify.person_notify,
        name="signup_notify",
    ),
    path("sign-up/<str:token>/push/<int:event_id>/", entry_notify.person_push, name="signup_push"),
    path("notifications/stop/<str:token>/", entry_notify.notify_stop, name="notify_stop"),
    # "this is me" on a public player page: push only, public notices only
    path("notifications/me/<int:entry_id>/", public_push.public_push, name="public_push"),
    path(
        "notifications/me/<int:entry_id>/stop/",
        public_push.public_push_stop,
        name="public_push_stop",
    ),
    path(
        "notifications/phone/<str:token>/stop/",
        public_push.public_push_off,
        name="public_push_off",
    ),
    path(
        "sign-up/<str:token>/<int:sign_up_id>/<slug:action>/",
        entry.person_action,
        name="signup_action",
    ),
    # the organiser's desk
    path("desk/", event_views.desk, name="desk"),
    path("desk/new/", event_views.event_create, name="event_create"),
    path("desk/sw.js", service_worker_views.service_worker, name="desk_service_worker"),
    # the public service worker (push, issue 31) and the web-app manifest iPhones need for it
    path("sw.js", entry_notify.service_worker, name="service_worker"),
    path("manifest.webmanifest", entry_notify.manifest, name="manifest"),
    path("desk/series/", series_desk_views.series_list, name="series_desk_list"),
    path("desk/series/<slug:series_slug>/", series_desk_views.series_desk, name="series_desk"),
    path("desk/series/<slug:series_slug>/join/", series_desk_views.series_join, name="series_join"),
    path(
        "desk/series/<slug:series_slug>/members/<int:member_id>/<slug:action>/",
        series_desk_views.series_member,
        name="series_member",
    ),
    path(
        "desk/series/<slug:series_slug>/standings.<slug:file_format>",
        series_desk_views.series_desk_download,
        name="series_desk_download",
    ),
    path("desk/<slug:event_slug>/", event_views.event_desk, name="event_desk"),
    path("desk/<slug:event_slug>/organisers/", event_views.organiser_add, name="organiser_add"),
    path("desk/<slug:event_slug>/export.json", views_export.event_export, name="event_export"),
    path("desk/<slug:event_slug>/outbox/retry/", outbox_views.outbox_retry, name="outbox_retry"),
    path("desk/<slug:event_slug>/outbox/test/", outbox_views.outbox_test, name="outbox_test"),
    # webhooks (issue 32): the event's addresses and their deliveries
    path("desk/<slug:event_slug>/webhooks/", webhook_views.webhook_list, name="webhooks"),
    path(
        "desk/<slug:event_slug>/webhooks/<int:webhook_id>/<slug:action>/",
        webhook_views.webhook_action,
        name="webhook_action",
    ),
    path(
        "desk/<slug:event_slug>/webhooks/deliveries/<int:delivery_id>/resend/",
        webhook_views.webhook_resend,
        name="webhook_resend",
    ),
    path("desk/<slug:event_slug>/edit/", desk_views.event_edit, name="event_edit"),
    path("desk/<slug:event_slug>/people/", desk_views.people, name="people"),
    path(
        "desk/<slug:event_slug>/people/<int:user_id>/remove/",
        desk_views.person_remove,
        name="person_remove",
    ),
    path(
        "desk/<slug:event_slug>/players/<int:player_id>/",
        desk_views.player_edit,
        name="player_edit",
    ),
    path(
        "desk/<slug:event_slug>/competitions/",
        event_views.competition_create,
        name="competition_create",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/",
        competition_views.competition_desk,
        name="competition_desk",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/settings/",
        competition_views.competition_settings,
        name="competition_settings",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/edit/",
        desk_views.competition_edit,
        name="competition_edit",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/search/",
        registration_views.player_search,
        name="player_search",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/register/",
        registration_views.register_known,
        name="register_known",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/register-new/",
        registration_views.register_new,
        name="register_new",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/export/<slug:kind>.<slug:file_format>",
        views_export.competition_export,
        name="competition_export",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/import/",
        import_views.csv_import,
        name="csv_import",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/check-in/",
        checkin_views.check_in_typed,
        name="check_in_typed",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/import/confirm/",
        import_views.csv_import_confirm,
        name="csv_import_confirm",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/proposals/",
        proposal_views.proposal_list,
        name="proposals",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/proposals/<int:proposal_id>/accept/",
        proposal_views.proposal_accept,
        name="proposal_accept",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/proposals/<int:proposal_id>/reject/",
        proposal_views.proposal_reject,
        name="proposal_reject",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/sign-up/",
        signup_desk_views.signup_desk,
        name="signup_desk",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/sign-up/door/",
        signup_desk_views.door_screen,
        name="door_screen",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/sign-up/sign-ups.<slug:file_format>",
        signup_desk_views.signup_download,
        name="signup_download",
    ),
    path(
        "desk/sign-ups/<int:sign_up_id>/merge/",
        signup_desk_views.signup_merge,
        name="signup_merge",
    ),
    path(
        "desk/sign-ups/<int:sign_up_id>/promote/",
        signup_desk_views.signup_promote,
        name="signup_promote",
    ),
    path(
        "desk/sign-ups/<int:sign_up_id>/fee/<slug:payment>/",
        signup_desk_views.signup_payment,
        name="signup_payment",
    ),
    path("desk/entries/<int:entry_id>/remove/", desk_views.entry_remove, name="entry_remove"),
    path(
        "desk/entries/<int:entry_id>/<slug:action>/",
        registration_views.entry_action,
        name="entry_action",
    ),
    path(
        "desk/corrections/<int:correction_id>/undo/",
        correction_views.correction_undo,
        name="correction_undo",
    ),
]
urlpatterns = nest(
    routes, "e/<slug:event_slug>/", "desk/", "desk/<slug:event_slug>/", "series/<slug:series_slug>/"
)
