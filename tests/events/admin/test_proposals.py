"""Results from players in the admin (``events.admin.proposals``): listed and searched, read only
(the desk decides proposals), and shown on the site at the competition's desk."""

from __future__ import annotations

from django.urls import reverse

from events.models import ResultProposal
from tests.support.factories import SeatFactory


def test_a_proposal_is_listed_searched_and_never_changed_here(admin_client):
    seat = SeatFactory()
    proposal = ResultProposal.objects.create(
        competition=seat.game.round.session.competition,
        game=seat.game,
        entry=seat.entry,
        payload={"score": 12},
        note="we swapped colours",
    )
    url = reverse("admin:events_resultproposal_changelist")
    found = admin_client.get(url, {"q": seat.entry.player.name})
    assert found.status_code == 200 and list(found.context["cl"].result_list) == [proposal]
    assert admin_client.get(url, {"q": "nobody-of-that-name"}).context["cl"].result_count == 0
    assert admin_client.get(reverse("admin:events_resultproposal_add")).status_code == 403
    change = reverse("admin:events_resultproposal_change", args=[proposal.pk])
    assert admin_client.get(change).status_code == 200
    admin_client.post(change, {"note": "changed", "status": "accepted"})
    delete = reverse("admin:events_resultproposal_delete", args=[proposal.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    proposal.refresh_from_db()
    assert (proposal.note, proposal.status) == ("we swapped colours", "proposed")
    model_admin = admin_client.get(change).context["adminform"].model_admin
    assert model_admin.view_on_site(proposal) == proposal.competition.get_desk_url()
