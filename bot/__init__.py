"""rallybot. Importing the package registers the message catalogue as the renderer of
`bot.engine.core.text.Msg` (its default-language text), so the engine can speak in message keys without
importing the catalogue."""

import bot.i18n  # noqa: F401  (registers the renderer)
