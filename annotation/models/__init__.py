"""Annotation: campaigns, leases (reserved items), questions and their answer spans, reviews,
the model in the loop and difference labels, one module a concept; every model and helper is
importable from `annotation.models` as before (migrations name `annotation.models.random_seed`)."""

from annotation.models.campaigns import Campaign, ModelKind, ModelMode, QuestionType, random_seed
from annotation.models.differences import DifferenceLabel, DifferenceLabelling
from annotation.models.gold import GoldAnswer, GoldQuestion
from annotation.models.leases import Lease, WorkItem
from annotation.models.model_loop import ModelAttempt, ModelRound
from annotation.models.qualification import QualificationAttempt, QualificationItem
from annotation.models.questions import (
    Answer,
    Question,
    QuestionRevision,
    export_id,
    export_id_match,
)
from annotation.models.reviews import RejectReason, Review, ReviewCounter

__all__ = [
    "Answer",
    "Campaign",
    "DifferenceLabel",
    "DifferenceLabelling",
    "GoldAnswer",
    "GoldQuestion",
    "Lease",
    "ModelAttempt",
    "ModelKind",
    "ModelMode",
    "ModelRound",
    "QualificationAttempt",
    "QualificationItem",
    "Question",
    "QuestionRevision",
    "QuestionType",
    "RejectReason",
    "Review",
    "ReviewCounter",
    "WorkItem",
    "export_id",
    "export_id_match",
    "random_seed",
]
