"""Every address of ``events``, gathered from its rooms by audience. The order is the order of
matching where two routes could take one address: a room's page under an event
(``e/<event>/sign-up/``) before a competition's slug, the series desk before an event's desk."""

from events.calendar import urls as calendar
from events.clubs import urls as clubs
from events.common.routing import nest
from events.desk import urls as desk
from events.embed import urls as embed
from events.help import urls as help_calls
from events.live import urls as live
from events.outbox import urls as outbox
from events.printing import urls as printing
from events.screens import urls as screens
from events.seating import urls as seating
from events.series import urls as series
from events.signups import urls as signups

app_name = "events"

routes = [
    # public, for phones
    *live.front,
    *clubs.public_routes,
    *series.public_routes,
    *calendar.public_routes,
    *signups.public_routes,
    *embed.public_routes,
    *screens.public_routes,
    *help_calls.public_routes,
    *live.competition,
    # a person's own pages behind their link, and the notifications they choose or stop
    *signups.private_routes,
    *outbox.public_routes,
    # the organiser's desk
    *desk.start,
    *clubs.desk_routes,
    *series.desk_routes,
    *outbox.desk_routes,
    *printing.desk_routes,
    *embed.desk_routes,
    *screens.desk_routes,
    *help_calls.desk_routes,
    *seating.desk_routes,
    *desk.events,
    *signups.desk_routes,
    *desk.entries,
]
urlpatterns = nest(
    routes,
    "e/<slug:event_slug>/",
    "desk/",
    "desk/<slug:event_slug>/",
    "series/<slug:series_slug>/",
    "c/<slug:club_slug>/",
    "desk/clubs/<slug:club_slug>/",
)
