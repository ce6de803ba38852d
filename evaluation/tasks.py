from celery import shared_task

from evaluation.models import BaselineRun, CrossEvaluation, DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_execute
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.cross_evaluation import cross_evaluation_execute
from evaluation.services.curves.learning_curves import learning_curve_execute
from evaluation.services.model_loop.attempts import model_answers_fill
from evaluation.services.model_loop.rounds import model_round_run
from evaluation.services.model_loop.serving import model_serve


def _run(job_pk: int) -> None:
    run = BaselineRun.to_run(job_pk)
    if run is None:
        return
    if run.kind == BaselineRun.Kind.LEARNING_CURVE:
        learning_curve_execute(run=run)
    else:
        baseline_run_execute(run=run)


@shared_task(acks_late=True)
def baseline_task(*, job_pk: int) -> None:
    """Lexical and HTTP baselines (queue default)."""
    _run(job_pk)


@shared_task(acks_late=True)
def gpu_baseline_task(*, job_pk: int) -> None:
    """Transformers baselines (routed to queue gpu by the name's `gpu_` prefix)."""
    _run(job_pk)


@shared_task(acks_late=True)
def analysis_task(*, job_pk: int) -> None:
    analysis = DatasetAnalysis.to_run(job_pk)
    if analysis is not None:
        analysis_execute(analysis=analysis)


@shared_task(acks_late=False)
def gpu_model_serve_task(*, location: str) -> None:
    """Serve a checkpoint to the annotation page until idle (queue gpu: model_serving).

    Acknowledged at once: a serve loop lost with its worker has nothing to redo, the next
    question sends another.
    """
    model_serve(location=location)


@shared_task(acks_late=True)
def model_answers_fill_task(*, question_pks: list[int]) -> None:
    """Ask the campaign's model about questions submitted without its verdict (queue default).

    A question that has one already is skipped: a redelivered task does nothing twice."""
    model_answers_fill(question_pks=question_pks)


@shared_task(acks_late=True)
def model_round_task(*, job_pk: int) -> None:
    """A model round scored on the earlier rounds' questions: lexical and HTTP models."""
    model_round_run(job_pk=job_pk)


@shared_task(acks_late=True)
def gpu_model_round_task(*, job_pk: int) -> None:
    """The same for a transformers model (routed to queue gpu by the name's `gpu_` prefix)."""
    model_round_run(job_pk=job_pk)


def _cross(job_pk: int) -> None:
    evaluation = CrossEvaluation.to_run(job_pk, CrossEvaluation.objects.select_related("run"))
    if evaluation is not None:
        cross_evaluation_execute(evaluation=evaluation)


@shared_task(acks_late=True)
def cross_evaluation_task(*, job_pk: int) -> None:
    """A lexical or HTTP run scored on another dataset (queue default)."""
    _cross(job_pk)


@shared_task(acks_late=True)
def gpu_cross_evaluation_task(*, job_pk: int) -> None:
    """A transformers run scored on another dataset (queue gpu by the name's prefix)."""
    _cross(job_pk)
