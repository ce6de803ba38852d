"""The model rounds API for admins: a campaign's rounds table and matrix (issue 15)."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Campaign
from core.api import JOB_STATE
from core.inputs import object_by_id
from core.permissions import IsPlatformAdmin
from evaluation.services.model_loop.rounds import campaign_model_rounds

CELL_FIGURES = ("questions", "exact_match", "f1", "fooled", "fooled_rate")


def _job(job) -> dict:
    """The round's job state, as every job's API shows it (its message translated)."""
    return {name: getattr(job, name) for name in JOB_STATE} | {"message": job.message_text}


def _round(row: dict) -> dict:
    plain = {key: value for key, value in row.items() if key != "round"}
    return plain | {"job": _job(row["round"]), "results": row["round"].results}


def _cell(cell: dict | None) -> dict | None:
    if cell is None:
        return None
    plain = {
        "model_round": cell["model_round"],
        "own": cell["own"],
        "status": cell["status"],
    }
    return plain | {key: cell.get(key) for key in CELL_FIGURES}


class CampaignModelRoundsView(APIView):
    """Admins: per round of a campaign's model in the loop, how often its model was fooled,
    and how each later round's model does on the questions written against the earlier ones."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: str):
        campaign = object_by_id(
            Campaign.objects, pk, field="campaign", missing=_("No such campaign.")
        )
        report = campaign_model_rounds(campaign)
        return Response(
            {
                "campaign": {"id": campaign.pk, "name": campaign.name},
                "model_round": campaign.model_round,
                "rounds": [_round(row) for row in report["rounds"]],
                "matrix": [
                    {"round": row["round"], "cells": [_cell(c) for c in row["cells"]]}
                    for row in report["matrix"]
                ],
            }
        )
