"""The OpenAPI schema and its browsable page, with assets served locally."""

import re

import yaml


def test_schema_describes_the_api(client, db):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    assert {
        "/api/v1/auth/token/",
        "/api/v1/me/",
        "/api/v1/users/import/",
        "/api/v1/worker-checks/",
        "/api/v1/worker-checks/{id}/",
    } <= set(schema["paths"])
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])


def test_docs_page_loads_everything_from_this_server(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources, html
    assert all(not re.match(r"https?://", source) for source in sources), sources
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []  # CSP: no inline script
