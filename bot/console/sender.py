"""The console is a sender too: what the services post comes out of the outbox here and is
printed (a league table as text, a board image and a cards file written to `--out`), and a
private reply is printed for its reader."""

from __future__ import annotations

import heapq
import re
from pathlib import Path

from bot import games
from bot.console.channels import Channels
from bot.console.printer import Say
from bot.console.tables import table_lines
from bot.engine.core.text import Listed, msg
from bot.i18n import t
from bot.services import RallyService, Reply
from bot.services.delivery import Outgoing
from bot.services.images import Renderer, default_renderer, draw_async, image_name
from bot.store.leagues import cards_tx

_CARDS_NAME = re.compile(r"[a-z0-9-]{1,60}\.json")


def written_count(folder: Path | None) -> int:
    """The highest number of the images and cards files (`NNN-…`) already in `folder`."""
    if folder is None or not folder.is_dir():
        return 0
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := re.match(r"(\d{3,})-", p.name))]
    return max(numbers, default=0)


class Sender:
    """Prints replies and owed posts through `say`; files go to `images` (`--out`), numbered on."""

    def __init__(self, service: RallyService, say: Say, names: dict[int, str], channels: Channels,
                 images: Path | None = None, renderer: Renderer | None = None) -> None:
        self.service = service
        self.say = say
        self.names = names  # user id → console name (the reader of a DM)
        self.channels = channels
        self.images = images
        self.renderer = renderer if renderer is not None or images is None else default_renderer()
        self.count = written_count(images)  # `--out` numbering goes on from what is there: nothing overwritten

    async def show(self, name: str, reply: Reply) -> None:
        """A private reply is printed for its reader; public posts come out of the outbox."""
        if reply.ephemeral or not reply.outbox:
            picks = reply.turn.options if reply.ephemeral and reply.turn is not None else ()
            game = games.get(reply.turn.game) if reply.turn is not None else None
            words = [game.commands.typed_words(p) if game is not None else p for p in picks]  # the reader's words
            more = [msg("console.picks", picks=Listed([msg("console.pick", pick=w) for w in words], "either"),
                        first=words[0])] if picks else []
            self.say(name, list(reply.lines) + more, ephemeral=True)
            for file_name, data in reply.files:
                self._file(name, file_name, data)
        await self.deliver()

    def _file(self, reader: str, name: str, data: bytes) -> None:
        """A file of a private reply (a league's export, its calendar): written next to the images
        (`--out`), else named."""
        if self.images is None:
            self.say(reader, [t("console.cards_attached", name=name)], ephemeral=True)
            return
        self.count += 1
        path = self.images / f"{self.count:03d}-{name}"
        path.write_bytes(data)
        self.say(reader, [t("console.file", path=str(path))], ephemeral=True)

    async def deliver(self) -> int:
        """Print every owed post, oldest first across channels, and mark it delivered (which
        starts a delivered turn's clock, exactly as on Discord)."""
        delivery = self.service.delivery
        count = 0
        waiting: list[tuple[int, int, Outgoing]] = []  # claimed heads of the lanes, by row id
        while True:
            for out in await delivery.claim():
                heapq.heappush(waiting, (out.row.id, count + len(waiting), out))
            if not waiting:
                return count
            _, _, out = heapq.heappop(waiting)
            await self._deliver_one(out)
            await delivery.sent(out, None)
            count += 1

    async def _deliver_one(self, out: Outgoing) -> None:
        user = out.row.user_id
        reader = self.names.get(user, str(user)) if user is not None else None
        where = None if out.is_dm else await self.channels.label(out.row.channel_id)
        prefix = f"[#{where}]" if where else None
        self.say(reader, out.lines, ephemeral=out.is_dm, prefix=prefix, lang=out.lang)
        image = out.image
        if image is not None and image.get("kind") == "table":
            self.say(reader, table_lines(image, out.lang), ephemeral=out.is_dm, prefix=prefix, lang=out.lang)
        if image is not None and self.images is not None and self.renderer is not None:
            self.count += 1
            path = self.images / f"{self.count:03d}-{image_name(image)}"
            path.write_bytes(await draw_async(self.renderer, image, out.lang, store=self.service.store))
            self.say(reader, [t("console.image", path=str(path))], ephemeral=out.is_dm, prefix=prefix)
        attach = out.row.body.get("attach")
        if isinstance(attach, dict) and attach.get("kind") == "cards":
            await self._attachment(reader, out, attach, prefix)

    async def _attachment(self, reader: str | None, out: Outgoing, attach: dict, prefix: str | None) -> None:
        """A round's cards file: written next to the images (`--out`), else named."""
        name = str(attach.get("name", ""))
        name = name if _CARDS_NAME.fullmatch(name) else "cards.json"
        round_id = int(attach.get("round_id", 0))
        body = await self.service.store.db.read(lambda tx: cards_tx(tx, round_id))
        if body is None:
            return
        if self.images is None:
            self.say(reader, [t("console.cards_attached", name=name)], ephemeral=out.is_dm, prefix=prefix)
            return
        self.count += 1
        path = self.images / f"{self.count:03d}-{name}"
        path.write_text(body, encoding="utf-8")
        self.say(reader, [t("console.cards_file", path=str(path))], ephemeral=out.is_dm, prefix=prefix)
