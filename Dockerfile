# syntax=docker/dockerfile:1
# The platform's production image. The same image runs every service of docker-compose.yml:
# gunicorn serves the pages (whitenoise the static files), Celery runs the worker and beat.
# INSTALL_GPU=1 adds the `gpu` extra (torch, transformers) for the gpu-worker image.
FROM python:3.11-slim

ARG INSTALL_GPU=0

# The code runs from /app (templates, static and locale live beside the packages), so /app goes
# first on the path; the installed copy of the packages only carries the distribution metadata.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONPATH=/app \
    VAR_DIR=/srv/var

RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /app --no-create-home \
        --shell /usr/sbin/nologin app

# Dependencies first, from pyproject.toml alone: this layer is rebuilt only when it changes.
COPY pyproject.toml /tmp/deps/pyproject.toml
RUN case "$INSTALL_GPU" in \
        0) extra="[languages]" ;; \
        1) extra="[gpu,languages]" ;; \
        *) echo "INSTALL_GPU must be 0 or 1, got '$INSTALL_GPU'" >&2; exit 1 ;; \
    esac \
    && pip install "/tmp/deps${extra}" \
    && pip uninstall --yes qaplatform \
    && rm -rf /tmp/deps

WORKDIR /app
COPY . /app
RUN pip install --no-deps . \
    && rm -rf /app/build /app/*.egg-info

# VAR_DIR holds what the platform writes: release files, static files, the beat schedule.
# The source stays owned by root, so the app user cannot change its own code.
RUN install --directory --owner app --group app "$VAR_DIR"
USER app

# Settings refuse to load without a secret: give collectstatic a throwaway one, on this line only.
# No REDIS_URL here, so the settings make the embedded broker folders: drop them from the image.
RUN SECRET_KEY=build-only-collectstatic-key-never-used-to-sign-anything-at-run-time \
    STATIC_MANIFEST=true \
    python manage.py collectstatic --noinput \
    && rm -rf "$VAR_DIR/broker"

VOLUME ["/srv/var"]
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", \
     "--access-logfile", "-", "--worker-tmp-dir", "/dev/shm"]
