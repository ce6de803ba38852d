"""The dependency rules of docs/architecture.md, checked on every import of the project's code.

Each module is read with `ast`; every import counts, the ones inside functions too, so a rule
cannot be dodged by moving an import into a function. The rules are written here once, with
the reason each exists; a failure names the module, the line and the rule.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent

# The floors, lowest first: an app may import its own floor and the floors below.
FLOORS = ["core", "accounts", "corpus", "annotation", "exports", "evaluation"]
ROOF = "config"  # settings, URL confs, the Celery app: it may import every app
APPS = [*FLOORS, ROOF]
FRAMEWORKS = {
    "django",
    "rest_framework",
    "drf_spectacular",
    "celery",
    "kombu",
    "django_htmx",
    "template_partials",
    "storages",
    "environ",
}
# Pure modules: no framework, and of the project only other pure modules. They hold what must
# be fast and testable alone. A package listed here covers its modules.
PURE = {
    "config.env",
    "core.egress",
    "core.metric_modes",
    "core.errors",
    "core.fragments",
    "core.jsondepth",
    "core.languages",
    "core.text",
    "core.charts",
    "core.logging",
    "accounts.tokens",
    "corpus.segmentation",
    "corpus.splits",
    "corpus.readers",
    "corpus.words",
    "annotation.sampling",
    "annotation.validation",
    "annotation.question_types",
    "annotation.guidelines",
    "exports.formats",
    "evaluation.metrics",
    "evaluation.baselines",  # all of it since the baseline jobs moved to services
    "evaluation.scoring",
    "evaluation.services.analysis.answer_types",
    "evaluation.agreement",
    "evaluation.services.curves.fit",
}
# An import may wait inside a function only where it must: Django's AppConfig.ready(), and a
# module that needs an optional extra (torch and transformers, the `gpu` extra).
LATE_IMPORTS = {
    ("evaluation.services.baselines.execute", "evaluation.baselines.qa"),
    ("evaluation.run_predict", "evaluation.baselines.qa"),
    ("evaluation.services.model_loop.serving", "evaluation.baselines.checkpoints"),
    ("evaluation.services.model_loop.serving", "evaluation.baselines.training"),
    ("evaluation.services.curves.learning_curves", "evaluation.baselines.qa"),
}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool

    def __str__(self) -> str:
        where = " (inside a function)" if self.in_function else ""
        return f"{self.importer}:{self.line} imports {self.imported}{where}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


MODULES = _modules()


def _resolve(module: str, names: list[str]) -> list[str]:
    """Return what `from module import names` brings: submodules where they are modules."""
    subs = [f"{module}.{name}" for name in names if f"{module}.{name}" in MODULES]
    return subs if len(subs) == len(names) else [module, *subs]


def _imports_of(name: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def visit(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            targets = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = _resolve(base, [alias.name for alias in child.names])
            for target in targets:
                found.append(Import(name, target, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


IMPORTS = [item for name, path in MODULES.items() for item in _imports_of(name, path)]


def _app(module: str) -> str:
    return module.split(".")[0]


def _project(module: str) -> bool:
    return _app(module) in APPS


def _is_pure(module: str) -> bool:
    return any(module == pure or module.startswith(pure + ".") for pure in PURE)


def _segments(module: str) -> list[str]:
    return module.split(".")


def _is_views(module: str) -> bool:
    return "views" in _segments(module) or module.endswith("_views")


def _is_api(module: str) -> bool:
    return "api" in _segments(module) or module.endswith("_api")


def _is_urls(module: str) -> bool:
    return module.endswith("urls")


def _is_kind(module: str, kind: str) -> bool:
    return kind in _segments(module)


def _is_service(module: str) -> bool:
    return _is_kind(module, "services")


def _project_imports():
    return [item for item in IMPORTS if _project(item.imported)]


def _broken(rule) -> str:
    """Return the imports that break `rule`, one per line ("" when none does)."""
    return "\n".join(str(item) for item in _project_imports() if rule(item))


def test_the_modules_and_their_imports_are_found():
    """The walk sees the code it checks (a test that finds nothing would pass vacuously)."""
    assert {"annotation.services.work", "exports.build", "evaluation.metrics"} <= set(MODULES)
    assert any(
        item == Import("accounts.apps", "accounts.services", item.line, True) for item in IMPORTS
    )
    assert _resolve("annotation.views", ["campaigns"]) == ["annotation.views.campaigns"]
    assert _resolve("core.errors", ["ServiceError"]) == ["core.errors"]


def test_every_app_imports_only_its_own_floor_and_the_floors_below():
    """core ← accounts ← corpus ← annotation ← exports ← evaluation; config above them all."""

    def upward(item: Import) -> bool:
        importer, imported = _app(item.importer), _app(item.imported)
        if importer == ROOF:
            return False
        if imported == ROOF:
            return item.imported != "config.env" or item.importer.startswith("config")
        return FLOORS.index(imported) > FLOORS.index(importer)

    assert _broken(upward) == ""


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _is_pure(m)))
def test_pure_modules_import_no_framework_and_only_pure_modules(module):
    """A pure module must run and be tested without Django: no framework import anywhere in
    it (inside functions included), and of the project only other pure modules."""
    problems = "\n".join(
        str(item)
        for item in IMPORTS
        if item.importer == module
        and (
            item.imported.split(".")[0] in FRAMEWORKS
            or (_project(item.imported) and not _is_pure(item.imported))
        )
    )
    assert problems == ""


def test_models_import_no_use_case_and_no_door():
    """Models hold state and constraints; what changes them lives in services."""

    def wrong(item: Import) -> bool:
        if not _is_kind(item.importer, "models"):
            return False
        imported = item.imported
        return (
            _is_service(imported)
            or _is_kind(imported, "selectors")
            or imported.endswith(".tasks")
            or _is_views(imported)
            or _is_api(imported)
        )

    assert _broken(wrong) == ""


def test_selectors_only_read():
    """A selector never imports a service: reading never writes."""

    def wrong(item: Import) -> bool:
        return _is_kind(item.importer, "selectors") and _is_service(item.imported)

    assert _broken(wrong) == ""


def test_nothing_imports_a_tasks_module():
    """Services enqueue tasks by name (`core.services.jobs.job_enqueue`); only Celery loads tasks, so
    the arrow tasks → services goes one way."""
    assert _broken(lambda item: item.imported.endswith(".tasks")) == ""


def test_tasks_are_thin():
    """A task loads its row and calls a service of its app: models and services only."""

    def wrong(item: Import) -> bool:
        if not item.importer.endswith(".tasks"):
            return False
        same_app = _app(item.imported) == _app(item.importer)
        return not same_app or not (_is_kind(item.imported, "models") or _is_service(item.imported))

    assert _broken(wrong) == ""


def test_only_url_confs_and_their_own_app_import_pages_and_api_modules():
    """Doors lead in: a page or API module is imported by URL confs, and by the doors of its
    own app (a shared helper); core's bases (`core.views`, `core.api`) serve every app. A page
    never imports an API module, nor an API module a page."""

    def wrong(item: Import) -> bool:
        imported, importer = item.imported, item.importer
        if not (_is_views(imported) or _is_api(imported)) or _is_urls(importer):
            return False
        if imported in ("core.views", "core.api"):
            return not (_is_views(importer) or _is_api(importer))
        if _app(imported) != _app(importer):
            return True
        return _is_views(imported) != _is_views(importer) or _is_api(imported) != _is_api(importer)

    assert _broken(wrong) == ""


def test_imports_wait_inside_functions_only_where_they_must():
    """Every project import sits at the top of its module, where the rules above see it,
    except in AppConfig.ready() and where a module needs an optional extra (torch)."""
    late = "\n".join(
        str(item)
        for item in _project_imports()
        if item.in_function
        and not item.importer.endswith(".apps")  # AppConfig.ready(): the models are loaded
        and (item.importer, item.imported) not in LATE_IMPORTS
    )
    assert late == ""


def test_each_rule_would_catch_a_breach():
    """The checks find what they look for: a made-up breach of each rule is reported."""
    breaches = {
        "floor": Import("corpus.services.articles", "annotation.models", 1, False),
        "task": Import("exports.services.releases", "exports.tasks", 1, True),
        "door": Import("evaluation.views.results", "corpus.views", 1, False),
        "page-api": Import("evaluation.views.leaderboard", "evaluation.api.leaderboard", 1, False),
        "selector": Import("annotation.selectors.quality", "annotation.services.work", 1, False),
    }
    IMPORTS.extend(breaches.values())
    try:
        for name, test in (
            ("floor", test_every_app_imports_only_its_own_floor_and_the_floors_below),
            ("task", test_nothing_imports_a_tasks_module),
            ("door", test_only_url_confs_and_their_own_app_import_pages_and_api_modules),
            ("page-api", test_only_url_confs_and_their_own_app_import_pages_and_api_modules),
            ("selector", test_selectors_only_read),
        ):
            with pytest.raises(AssertionError) as failure:
                test()
            assert str(breaches[name]) in str(failure.value)
    finally:
        for item in breaches.values():
            IMPORTS.remove(item)


# Writes: each app's tables are written (saved, updated, deleted, created, locked) by its own
# code only; another app calls the owner's services. Read statically: a write method called on
# a chain that starts at a model imported from another app's `models` (`Question.objects...`),
# or on a variable named for such a model (`question.save()`, `self.campaign.delete()`).
WRITES = {
    "save",
    "update",
    "delete",
    "create",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
    "select_for_update",
}


@dataclass(frozen=True)
class Write:
    writer: str
    model: str  # "annotation.Question"
    method: str
    line: int

    def __str__(self) -> str:
        return f"{self.writer}:{self.line} calls {self.method}() on {self.model}"


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def _foreign_models(name: str, tree: ast.AST) -> dict[str, str]:
    """Return {local name: "app.Model"} for the models this module imports from other apps."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            parts = node.module.split(".")
            if parts[-1] == "models" and parts[0] in APPS and parts[0] != _app(name):
                for alias in node.names:
                    if alias.name[:1].isupper():
                        found[alias.asname or alias.name] = f"{parts[0]}.{alias.name}"
    return found


def _root(node: ast.AST) -> ast.AST:
    """The start of a chain `a.b(...).c(...)`: the leftmost name or attribute."""
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        else:
            return node


def _writes_of(name: str, source: str) -> list[Write]:
    tree = ast.parse(source)
    models = _foreign_models(name, tree)
    by_instance = {_snake(local): model for local, model in models.items()}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITES:
            continue
        receiver = node.func.value
        root = _root(receiver)
        model = None
        if isinstance(root, ast.Name) and root.id in models:
            model = models[root.id]
        elif node.func.attr in ("save", "delete"):
            last = (
                receiver.attr
                if isinstance(receiver, ast.Attribute)
                else getattr(receiver, "id", "")
            )
            model = by_instance.get(last)
        if model:
            found.append(Write(name, model, node.func.attr, node.lineno))
    return found


WRITES_FOUND = [
    item
    for name, path in MODULES.items()
    for item in _writes_of(name, path.read_text(encoding="utf-8"))
]


def test_each_app_writes_only_its_own_tables():
    """One owner per table: no module saves, updates, deletes, creates or locks another app's
    models; it calls the owning app's services (which a lower app reaches through a signal)."""
    assert "\n".join(str(item) for item in WRITES_FOUND) == ""


def test_the_write_rule_would_catch_a_breach():
    """Writes of another app's rows are found (through the manager, a queryset, an instance
    named for the model, a lock), the owner's own writes are not, and a breach fails the rule."""
    source = """
from annotation.models import Campaign, Question as Q
from evaluation.models import BaselineRun

def breach(campaign, pk):
    Q.objects.filter(pk=pk).update(model_f1=1)
    Campaign.objects.select_for_update().get(pk=pk)
    campaign.save()
    self.campaign.delete()
    Q.objects.bulk_update([], ["text"])
    BaselineRun.objects.filter(pk=pk).update(log="")
    {}.update(a=1)
"""
    found = [str(item) for item in _writes_of("evaluation.services.example", source)]
    assert sorted(found) == [
        "evaluation.services.example:10 calls bulk_update() on annotation.Question",
        "evaluation.services.example:6 calls update() on annotation.Question",
        "evaluation.services.example:7 calls select_for_update() on annotation.Campaign",
        "evaluation.services.example:8 calls save() on annotation.Campaign",
        "evaluation.services.example:9 calls delete() on annotation.Campaign",
    ]
    mine = [str(item) for item in _writes_of("annotation.services.example", source)]
    assert mine == ["annotation.services.example:11 calls update() on evaluation.BaselineRun"]
    breach = Write("evaluation.services.example", "annotation.Question", "update", 6)
    WRITES_FOUND.append(breach)
    try:
        with pytest.raises(AssertionError) as failure:
            test_each_app_writes_only_its_own_tables()
        assert str(breach) in str(failure.value)
    finally:
        WRITES_FOUND.remove(breach)


# Templates stand on their app's floor too. A template may name (`{% url 'app:name' %}`) and
# include or extend (`{% include "app/…" %}`) only what its own floor and the floors below
# own; a page that shows a part of a higher app renders a place (`{% fragments "…" %}`) that
# the higher app fills in its AppConfig.ready (core/fragments.py). A URL belongs to the app
# whose URL conf declares it; the roof's own (the language switch, the API docs, Django's
# admin) are the site's, and any template may name them. The project's `templates/` is the
# frame: base.html, the error pages, partials/. Every page extends or includes it, so any
# template may name it; and it names nothing above accounts (the home, the sign-out), so no
# feature reaches every page through it.
FRAME = "templates"
FRAME_NAMES_UP_TO = "accounts"
TEMPLATE_TAG = re.compile(r"\{%\s*(url|include|extends)\s+([\"'])([^\"']+)\2")
# Upward references that another change removes; each must still exist (delete it then).
TEMPLATE_EXCEPTIONS: set[tuple[str, str]] = set()


def _template_files() -> dict[str, str]:
    paths = [*(ROOT / FRAME).rglob("*.html")]
    for app in FLOORS:
        paths += (ROOT / app / "templates").rglob("*.html")
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in paths}


TEMPLATES = _template_files()


@cache
def _url_owners() -> dict[str, str]:
    """Every named URL ("namespace:name") and the URL conf that declares it."""
    owners = {}

    def walk(patterns, namespace: str, conf: str):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner, getattr(pattern.urlconf_module, "__name__", ""))
            elif isinstance(pattern, URLPattern) and pattern.name:
                owners[namespace + pattern.name] = conf

    walk(get_resolver().url_patterns, "", get_resolver().urlconf_name)
    return owners


def _template_owner(name: str) -> str | None:
    """The app (or the frame) a template name belongs to; None for a library's template."""
    name = name.partition("#")[0]
    first = name.split("/")[0]
    if first in FLOORS and (ROOT / first / "templates" / name).exists():
        return first
    if (ROOT / FRAME / name).exists():
        return FRAME
    return None


@dataclass(frozen=True)
class Reference:
    template: str  # the path of the template that names it
    line: int
    tag: str  # url, include or extends
    name: str
    owner: str | None  # the app that owns what is named, FRAME, or None (a library's)

    def __str__(self) -> str:
        return f"{self.template}:{self.line} {self.tag} {self.name} ({self.owner})"


def _references(path: str, text: str) -> list[Reference]:
    found = []
    for match in TEMPLATE_TAG.finditer(text):
        tag, name = match.group(1), match.group(3)
        if tag == "url":
            view = _url_owners().get(name, "")
            owner = _app(view) if _project(view) else None
        else:
            owner = _template_owner(name)
        line = text.count("\n", 0, match.start()) + 1
        found.append(Reference(path, line, tag, name, owner))
    return found


def _upward(ref: Reference) -> bool:
    holder = ref.template.split("/")[0]
    if ref.owner not in FLOORS:  # the frame, the roof's own pages, a library's
        return False
    ceiling = FRAME_NAMES_UP_TO if holder == FRAME else holder
    return FLOORS.index(ref.owner) > FLOORS.index(ceiling)


def _template_breaches() -> list[Reference]:
    return [
        ref
        for path, text in TEMPLATES.items()
        for ref in _references(path, text)
        if _upward(ref) and (ref.template, ref.name) not in TEMPLATE_EXCEPTIONS
    ]


def test_the_templates_and_what_they_name_are_found():
    """The scan sees the templates and tells who owns what they name."""
    assert {"templates/base.html", "accounts/templates/accounts/admin_home.html"} <= set(TEMPLATES)
    base = {
        ref.name: ref.owner
        for ref in _references("templates/base.html", TEMPLATES["templates/base.html"])
    }
    assert base == {
        "partials/htmx.html": FRAME,
        "accounts:home": "accounts",
        "set_language": ROOF,
        "accounts:logout": "accounts",
    }
    assert _template_owner("core/job_status.html#job-status") == "core"
    assert _url_owners()["reports:hours"].startswith("annotation.")


def test_templates_name_only_their_own_floor_and_the_floors_below():
    """A lower app's template names no higher app's URL and includes none of its templates;
    the frame (templates/) names nothing above accounts."""
    assert "\n".join(str(ref) for ref in _template_breaches()) == ""


def test_each_template_exception_is_still_needed():
    """An exception that no template needs any more is deleted, so the list only shrinks."""
    named = {
        (ref.template, ref.name)
        for path, text in TEMPLATES.items()
        for ref in _references(path, text)
        if _upward(ref)
    }
    assert TEMPLATE_EXCEPTIONS - named == set()


def test_the_template_rule_would_catch_a_breach():
    """A made-up template of each kind of breach is reported; extending the frame is not."""
    breaches = {
        "corpus/templates/corpus/made_up.html": (
            "{% extends \"base.html\" %}{% url 'annotation:campaigns' %}\n"
            '{% include "evaluation/fragments.html#schedule-scores" %}'
        ),
        "templates/made_up.html": '{% url "exports:releases" %}',
    }
    TEMPLATES.update(breaches)
    try:
        reported = {str(ref) for ref in _template_breaches()}
        with pytest.raises(AssertionError):
            test_templates_name_only_their_own_floor_and_the_floors_below()
    finally:
        for path in breaches:
            del TEMPLATES[path]
    assert reported == {
        "corpus/templates/corpus/made_up.html:1 url annotation:campaigns (annotation)",
        "corpus/templates/corpus/made_up.html:2 include "
        "evaluation/fragments.html#schedule-scores (evaluation)",
        "templates/made_up.html:1 url exports:releases (exports)",
    }
