"""A wrong team code at signing: the field comes back empty and focused, with the reason beside it, so the
phone types the code afresh instead of appending to the refused one (and spending its budget of tries)."""

import html as html_module
import re

from django.urls import reverse

from tournament.models import Signature


def code_input(html: str, name: str) -> str:
    return re.search(rf'<input type="text" name="{name}"[^>]*>', html).group(0)


def test_a_wrong_code_at_signing_is_emptied_and_focused_with_the_reason_beside_it(client, table, sheet):
    table = sheet.full_round(table)
    ns = table.team_at("NS")
    data = {"sign-NS-version": table.version, "sign-NS-pair": "NS", "sign-NS-player": ns.members[0].player.pk}
    address = reverse("table", args=[table.secret])
    response = client.post(reverse("table_sign", args=[table.secret]), {**data, "sign-NS-code": "WRONG1"})
    assert response.url == f"{address}#id_sign-NS-code_group"
    html = client.get(response.url).content.decode()
    field = code_input(html, "sign-NS-code")
    assert "WRONG1" not in html and 'value="' not in field, "drawn empty"
    assert "autofocus" in field, "focused, without any script"
    group = html[html.index('id="id_sign-NS-code_group"') : html.index(field)]
    assert f"That is not North–South's code (team #{ns.number})." in html_module.unescape(group)
    response = client.post(reverse("table_sign", args=[table.secret]), {**data, "sign-NS-code": ns.code})
    assert response.status_code == 302 and Signature.objects.filter(table=table, pair="NS").exists()


def test_the_player_chosen_stays_when_only_the_code_was_wrong(client, table, sheet):
    table = sheet.full_round(table)
    ns = table.team_at("NS")
    chosen = ns.members[1].player.pk
    data = {"sign-NS-version": table.version, "sign-NS-pair": "NS", "sign-NS-player": chosen, "sign-NS-code": "X"}
    html = client.get(client.post(reverse("table_sign", args=[table.secret]), data).url).content.decode()
    assert re.search(rf'value="{chosen}"[^>]*checked', html), "the name chosen is kept"
