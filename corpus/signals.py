"""What the corpus tells the apps above it, without knowing them.

`articles_changed` is sent, inside the transaction that made the change, with `article_pks`:
articles created, given new paragraphs, or moved to another split. The annotation app listens
to keep the work its campaigns offer in step with the corpus.
"""

from django.dispatch import Signal

articles_changed = Signal()
