"""The submissions limit, shared by the leaderboard's page and its API."""

from rest_framework.settings import api_settings
from rest_framework.throttling import UserRateThrottle


class SubmissionsThrottle(UserRateThrottle):
    """At most SUBMISSIONS_RATE submissions per user, whichever door they come by.

    DRF's throttles keep the rates they found when first imported; reading them from
    api_settings on each request lets a changed REST_FRAMEWORK setting (the tests') apply.
    """

    scope = "submissions"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
