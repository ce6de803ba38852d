from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = _("Evaluation")

    def ready(self):
        quality_figure = _register_figures()
        _connect_receivers()
        _register_extensions(quality_figure=quality_figure)
        _register_fragments()


def _register_figures() -> str:
    """Evaluation's figures (core/figures.py): human performance and the annotators' quality;
    return the quality figure's name, which annotation's quality measures point to."""
    from core.figures import figure_register
    from evaluation.selectors.annotator_quality import annotator_quality_figure
    from evaluation.selectors.human import human_figure

    figure_register(human_figure())
    quality = annotator_quality_figure()
    figure_register(quality)
    return quality.name


def _connect_receivers() -> None:
    """Evaluation's part of lower apps' use cases, in their transactions: the model's answers
    to questions just written, a correction scoring the model again, a release's scoring."""
    from annotation.events import questions_written
    from evaluation.services.model_loop.attempts import on_questions_written
    from evaluation.services.model_loop.review import question_model_rescore  # noqa: F401 (its receiver)
    from evaluation.services.release_scoring import on_release_built
    from exports.events import release_built

    questions_written.connect(on_questions_written, dispatch_uid="evaluation-model-answers")
    release_built.connect(on_release_built, dispatch_uid="evaluation-release-scoring")


def _register_extensions(*, quality_figure: str) -> None:
    """What lower apps ask of evaluation (core/extensions.py): a release's scoring, the
    quality measures' figure, the gold questions' scorer."""
    from annotation.gold_scoring import POINT as GOLD_POINT
    from annotation.selectors.quality import QUALITY_MEASURES, QualityMeasures
    from core.extensions import extension_register
    from evaluation.forms import release_scoring_extension
    from evaluation.gold import gold_scorer
    from exports.scoring import POINT

    extension_register(POINT, release_scoring_extension())
    extension_register(QUALITY_MEASURES, QualityMeasures(figure=quality_figure))
    extension_register(GOLD_POINT, gold_scorer())


def _register_fragments() -> None:
    """Evaluation's parts of lower apps' pages (core/fragments.py)."""
    from core.fragments import fragment_register

    for place, part, order in (
        ("accounts.admin-home", "admin-home", 40),
        ("annotation.campaign-dashboard.links", "campaign-dashboard-link", 0),
        ("annotation.campaign-dashboard.panels", "campaign-dashboard-estimate", 0),
        ("annotation.campaign-form.links", "campaign-form-link", 0),
        ("exports.schedule.scores", "schedule-scores", 0),
        ("exports.release.score-with", "release-score-with", 0),
        ("exports.release.scoring", "release-scoring", 0),
        ("exports.release-form.score-with", "release-form-score-with", 0),
        ("exports.schedule-form.score-with", "schedule-form-score-with", 0),
    ):
        fragment_register(place, f"evaluation/fragments.html#{part}", order=order)
