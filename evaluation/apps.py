from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = _("Evaluation")

    def ready(self):
        from core.figures import figure_register
        from evaluation.human import human_figure
        from evaluation.loop_review import question_model_rescore  # noqa: F401 (its receiver)

        figure_register(human_figure())

        from annotation.events import questions_written
        from evaluation.in_the_loop import on_questions_written

        questions_written.connect(on_questions_written, dispatch_uid="evaluation-model-answers")

        from evaluation.release_scoring import on_release_built, on_score_with_check
        from exports.events import release_built, score_with_check

        score_with_check.connect(on_score_with_check, dispatch_uid="evaluation-score-with")
        release_built.connect(on_release_built, dispatch_uid="evaluation-release-scoring")

        # Evaluation's parts of lower apps' pages (core/fragments.py).
        from core.fragments import fragment_register

        for place, part, order in (
            ("accounts.admin-home", "admin-home", 40),
            ("annotation.campaign-dashboard.links", "campaign-dashboard-link", 0),
            ("annotation.campaign-dashboard.panels", "campaign-dashboard-estimate", 0),
            ("annotation.campaign-form.links", "campaign-form-link", 0),
            ("exports.schedule.scores", "schedule-scores", 0),
        ):
            fragment_register(place, f"evaluation/fragments.html#{part}", order=order)
