from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = _("Evaluation")

    def ready(self):
        from core.figures import figure_register
        from evaluation.human import human_figure

        figure_register(human_figure())
