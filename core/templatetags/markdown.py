from django import template

from core.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str):
    """Render Markdown with raw HTML escaped (see core.markdown)."""
    return render_markdown(text)
