"""`{% fragments "place" %}`: the templates that higher apps registered at a place of this
page (`core.fragments`), rendered in order with the page's context, as `{% include %}` would."""

from django import template

from core.fragments import fragments_of

register = template.Library()


class FragmentsNode(template.Node):
    def __init__(self, place):
        self.place = place

    def render(self, context):
        engine = context.template.engine
        parts = []
        for name in fragments_of(self.place.resolve(context)):
            with context.push():
                parts.append(engine.get_template(name).render(context))
        return "".join(parts)


@register.tag
def fragments(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(f"{bits[0]} takes one argument: the place's name")
    return FragmentsNode(parser.compile_filter(bits[1]))
