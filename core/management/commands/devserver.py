"""`runserver` as `make run` starts it, without the 40 ms stall at the end of every page.

Django's development server writes a response in several small writes (status line and
headers, then the body). With Nagle's algorithm on, the kernel holds the last small write
until the browser acknowledges the first, and the browser delays that acknowledgement
(delayed ACK, about 40 ms on Linux): every page then took 40–45 ms from its first byte to
its last (bench/annotation_page.py). gunicorn writes a response at once and does not stall.
This command is `runserver` (with WhiteNoise's static files, as configured) on a server that
turns Nagle's algorithm off for each connection (TCP_NODELAY): each write leaves at once.
"""

import socket

from django.core.servers.basehttp import WSGIServer
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as RunserverCommand,
)


class NoDelayWSGIServer(WSGIServer):
    def get_request(self):
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


class Command(RunserverCommand):
    help = "Serve the platform for development (runserver, each write sent at once)."
    server_cls = NoDelayWSGIServer
