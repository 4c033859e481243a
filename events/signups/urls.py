"""Sign-up's addresses by audience: the public form, the person's pages behind their link (with
the notifications the person chooses), and the desk's list of sign-ups and door screen."""

from django.urls import path

from events.signups import notify
from events.signups.views import desk, person

# Before the competition's route: "sign-up" is a word a competition's slug could be.
public_routes = [
    path("e/<slug:event_slug>/sign-up/", person.signup, name="signup"),
    path("e/<slug:event_slug>/sign-up/resend/", person.signup_resend, name="signup_resend"),
]
private_routes = [
    path("sign-up/<str:token>/", person.person, name="signup_person"),
    path("sign-up/<str:token>/confirm/", person.person_confirm, name="signup_confirm"),
    path("sign-up/<str:token>/my-data.json", person.person_data, name="signup_data"),
    path("sign-up/<str:token>/erase/", person.person_erase, name="signup_erase"),
    path("sign-up/<str:token>/name/", person.person_name_shown, name="signup_name_shown"),
    # notifications: the choice per event, a browser's push
    path(
        "sign-up/<str:token>/notify/<int:event_id>/",
        notify.person_notify,
        name="signup_notify",
    ),
    path("sign-up/<str:token>/push/<int:event_id>/", notify.person_push, name="signup_push"),
    path(
        "sign-up/<str:token>/<int:sign_up_id>/<slug:action>/",
        person.person_action,
        name="signup_action",
    ),
]
desk_routes = [
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/sign-up/",
        desk.signup_desk,
        name="signup_desk",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/sign-up/door/",
        desk.door_screen,
        name="door_screen",
    ),
    path(
        "desk/<slug:event_slug>/<slug:competition_slug>/sign-up/sign-ups.<slug:file_format>",
        desk.signup_download,
        name="signup_download",
    ),
    path(
        "desk/sign-ups/<int:sign_up_id>/merge/",
        desk.signup_merge,
        name="signup_merge",
    ),
    path(
        "desk/sign-ups/<int:sign_up_id>/promote/",
        desk.signup_promote,
        name="signup_promote",
    ),
    path(
        "desk/sign-ups/<int:sign_up_id>/fee/<slug:payment>/",
        desk.signup_payment,
        name="signup_payment",
    ),
]
