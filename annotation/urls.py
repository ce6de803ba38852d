from django.urls import path

from annotation.views import (
    campaigns,
    differences,
    qualification,
    quality,
    questions,
    review,
    work,
)

app_name = "annotation"

urlpatterns = [
    # Annotators
    path("annotate/", work.annotator_home, name="annotator-home"),
    path("annotate/campaigns/<int:campaign_pk>/next/", work.next_paragraph, name="next-paragraph"),
    path("annotate/leases/<int:pk>/", work.lease_page, name="lease"),
    path("annotate/leases/<int:pk>/release/", work.lease_release_view, name="lease-release"),
    path("annotate/leases/<int:pk>/answer/", work.answer_submit_view, name="answer-submit"),
    # The qualification round (docs/quality.md)
    path(
        "annotate/campaigns/<int:campaign_pk>/qualification/",
        qualification.qualification_page,
        name="qualification",
    ),
    path(
        "annotate/campaigns/<int:campaign_pk>/qualification/retry/",
        qualification.qualification_retry_view,
        name="qualification-retry",
    ),
    path(
        "annotate/qualification/<int:pk>/",
        qualification.qualification_item_page,
        name="qualification-item",
    ),
    path(
        "manage/quality/qualification/<int:campaign_pk>/<int:user_pk>/reset/",
        qualification.qualification_reset_view,
        name="qualification-reset",
    ),
    # Reviewers
    path("review/", review.reviewer_home, name="reviewer-home"),
    path("review/campaigns/<int:campaign_pk>/next/", review.next_review, name="next-review"),
    path("review/leases/<int:pk>/", review.review_page, name="review"),
    path("review/leases/<int:pk>/skip/", review.review_release, name="review-skip"),
    # Question–answer differences: reviewers and admins
    path("review/differences/", differences.differences_page, name="differences"),
    path("review/differences/next/", differences.difference_next, name="difference-next"),
    path(
        "review/differences/questions/<int:pk>/",
        differences.difference_label_page,
        name="difference-label",
    ),
    # A question with its history: its author, reviewers and admins
    path("questions/<uuid:uuid>/", questions.question_page, name="question"),
    path("questions/<uuid:uuid>/gold/", questions.question_gold, name="question-gold"),
    # Admins
    path("manage/quality/", quality.quality_page, name="quality"),
    path("manage/annotators/<int:pk>/pause/", quality.annotator_pause_view, name="annotator-pause"),
    path("manage/campaigns/", campaigns.campaigns_page, name="campaigns"),
    path("manage/campaigns/new/", campaigns.campaign_page, name="campaign-new"),
    path("manage/campaigns/<int:pk>/", campaigns.campaign_page, name="campaign"),
    path(
        "manage/campaigns/<int:pk>/dashboard/",
        campaigns.campaign_dashboard,
        name="campaign-dashboard",
    ),
]
