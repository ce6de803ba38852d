"""Is the `gpu` extra (torch and transformers) installed? One check for every door that takes a
job of the gpu queue and for the workers that run one.

`make run` (the filesystem broker: one machine, one virtualenv) serves the gpu queue from the
web's own environment, so a run its worker cannot do is refused when it is asked for
(`settings.GPU_QUEUE_LOCAL`). With Redis the gpu worker is another machine, built with the
extra (`INSTALL_GPU=1`): the web process cannot see what it has, and its worker's error says
what to install.
"""

from __future__ import annotations

from importlib.util import find_spec

from django.conf import settings
from django.utils.html import format_html
from django.utils.translation import gettext as _

MODULES = ("torch", "transformers")
INSTALL_COMMAND = ".venv/bin/pip install -e '.[gpu]'"


def gpu_extra_missing() -> list[str]:
    """Return the extra's modules this process cannot import (none: the extra is installed)."""
    return [name for name in MODULES if find_spec(name) is None]


def gpu_extra_require() -> None:
    """Raise RuntimeError (a worker's error, in English like its log) when the extra is missing."""
    missing = gpu_extra_missing()
    if missing:
        raise RuntimeError(
            f"{' and '.join(missing)} not installed on this worker: install the project's `gpu` "
            f"extra ({INSTALL_COMMAND}) on the machine that consumes the gpu queue"
        )


class Refusal(str):
    """A refusal that names a shell command: plain text wherever it is text (the API's JSON,
    a flash message), and on a page (`{{ message }}`, which asks for `__html__`) the text
    escaped with the command in `<code class="command">`, which scrolls within its box rather
    than break mid-word on a phone (app.css). The command ends the sentence: no punctuation
    after it to start a line of its own."""

    def __new__(cls, template: str, command: str):
        refusal = super().__new__(cls, template % {"command": command})
        refusal.template, refusal.command = template, command
        return refusal

    def __html__(self) -> str:
        before, _middle, after = self.template.partition("%(command)s")
        return format_html('{}<code class="command">{}</code>{}', before, self.command, after)


def gpu_extra_problem() -> str | None:
    """Return why a gpu-queue run would fail here (to refuse it up front), or None.

    Only where the gpu queue is served from this environment (`GPU_QUEUE_LOCAL`)."""
    if not settings.GPU_QUEUE_LOCAL or not gpu_extra_missing():
        return None
    return Refusal(
        _(
            "This kind runs on the gpu queue, which needs the gpu extra (torch and "
            "transformers): it is not installed here. Install it, then restart make run: "
            "%(command)s"
        ),
        INSTALL_COMMAND,
    )
