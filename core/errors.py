"""The one error type services raise for refused input: field name → messages."""


class ServiceError(Exception):
    """Refused input, as {field: [messages]}; views and the API turn it into a 4xx."""

    def __init__(self, errors: dict[str, list[str]], status: int = 400):
        self.errors = errors
        self.status = status
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))

    def summary(self) -> str:
        """Return every message as one sentence, for a page's flash message."""
        return " ".join(message for messages in self.errors.values() for message in messages)
