"""The Celery settings the job design relies on."""

from django.conf import settings

from config.celery import app


def test_four_queues_with_default_as_default():
    assert [q.name for q in app.conf.task_queues] == ["default", "scrape", "export", "gpu"]
    assert app.conf.task_default_queue == "default"


def test_long_tasks_are_acknowledged_late_and_one_at_a_time():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_ignore_result is True


def test_visibility_timeout_outlasts_the_longest_task():
    options = app.conf.broker_transport_options
    if settings.REDIS_URL:
        assert options["visibility_timeout"] > app.conf.task_time_limit
        assert options["visibility_timeout"] == settings.JOB_MAX_SECONDS + 3600
    else:
        assert options["data_folder_in"] == options["data_folder_out"]
    assert app.conf.task_soft_time_limit < app.conf.task_time_limit == settings.JOB_MAX_SECONDS


def test_tasks_are_routed_by_app():
    route = app.amqp.router.route
    assert route({}, "corpus.tasks.scrape_run")["queue"].name == "scrape"
    assert route({}, "exports.tasks.release_build")["queue"].name == "export"
    assert route({}, "evaluation.tasks.gpu_finetune")["queue"].name == "gpu"
    assert route({}, "core.tasks.worker_check_run_task")["queue"].name == "default"


def test_beat_keeps_mrqa_tokens_ahead_on_the_export_queue():
    assert app.conf.beat_schedule == {
        "mrqa-tokens-ahead": {
            "task": "exports.tasks.tokens_ahead_task",
            "schedule": float(settings.MRQA_TOKENS_AHEAD_SECONDS),
        },
        # The release schedules' tick (docs/release-schedules.md), on the default queue.
        "release-schedules-tick": {
            "task": "exports.tasks.release_schedules_tick_task",
            "schedule": 60.0,
            "options": {"queue": "default"},
        },
    }
    assert settings.MRQA_TOKENS_AHEAD_SECONDS == 600
    app.loader.import_default_modules()
    assert "exports.tasks.tokens_ahead_task" in app.tasks
    assert app.amqp.router.route({}, "exports.tasks.tokens_ahead_task")["queue"].name == "export"
    tick = app.conf.beat_schedule["release-schedules-tick"]
    assert "exports.tasks.release_schedules_tick_task" in app.tasks
    # route() writes the Queue it found into the options it is given: a copy, not the setting
    assert app.amqp.router.route(dict(tick["options"]), tick["task"])["queue"].name == "default"
