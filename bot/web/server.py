"""`WebServer`: the site listening on a port, started with the bot (or the console) and stopped
with it. The access log is off (a page view is not the bot's news); errors are logged."""

from __future__ import annotations

from aiohttp import web

DEFAULT_HOST = "127.0.0.1"


class WebServer:
    def __init__(self, app: web.Application) -> None:
        self.app = app
        self._runner: web.AppRunner | None = None
        self.host = DEFAULT_HOST
        self.port = 0

    async def start(self, port: int, host: str = DEFAULT_HOST) -> str:
        """Listen on `host:port` (port 0: any free one); returns the site's address."""
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.host = host
        self.port = port
        for address in runner.addresses:  # the port the system gave when asked for 0
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break
        return self.address

    @property
    def address(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{shown}:{self.port}/"

    async def stop(self) -> None:
        """Stop listening (safe to call twice)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
