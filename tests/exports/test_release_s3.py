"""With RELEASES_S3_BUCKET set, release files go to an S3-compatible bucket and come back
through the same admin-only download. The bucket is a local S3 server (moto's), since no
machine here reaches the internet: the storage code talks to it over HTTP like to any S3."""

import hashlib
import subprocess
import sys

import boto3
import pytest
from moto.server import ThreadedMotoServer
from rest_framework.test import APIClient

from exports.models import ReleaseFile
from tests.exports.test_releases import built, make_dataset
from tests.factories import UserFactory
from tests.services import ROOT, manage_env

BUCKET = "qaplatform-releases"


@pytest.fixture
def s3_endpoint(monkeypatch):
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1").create_bucket(Bucket=BUCKET)
    yield endpoint
    server.stop()


def test_the_settings_pick_the_s3_storage_when_a_bucket_is_named(tmp_path):
    code = (
        "from django.conf import settings; s = settings.STORAGES['releases']; "
        "print(s['BACKEND'], s['OPTIONS']['bucket_name'], s['OPTIONS']['endpoint_url'], "
        "s['OPTIONS']['default_acl'], s['OPTIONS']['file_overwrite'])"
    )
    env = manage_env(
        VAR_DIR=str(tmp_path),
        RELEASES_S3_BUCKET=BUCKET,
        RELEASES_S3_ENDPOINT_URL="http://127.0.0.1:9000",
    )
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == [
        "storages.backends.s3.S3Storage",
        BUCKET,
        "http://127.0.0.1:9000",
        "private",
        "False",
    ]


@pytest.mark.django_db
def test_a_release_is_stored_in_the_bucket_and_downloaded_through_the_platform(
    settings, s3_endpoint
):
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": BUCKET,
                "endpoint_url": s3_endpoint,
                "region_name": "us-east-1",
                "default_acl": "private",
                "file_overwrite": False,
            },
        },
    }
    make_dataset()
    boss = UserFactory(username="boss-s3", roles=["admin"])
    release = built(boss, "fquad-s3", formats=["squad", "hf"])
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")
    keys = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET)["Contents"])
    names = sorted(ReleaseFile.objects.filter(release=release).values_list("name", flat=True))
    assert keys == [f"releases/{release.pk}/{name}" for name in names]
    item = ReleaseFile.objects.get(release=release, name="hf-dev.jsonl")
    body = s3.get_object(Bucket=BUCKET, Key=item.storage_name)["Body"].read()
    assert hashlib.sha256(body).hexdigest() == item.sha256
    api = APIClient()
    api.force_authenticate(boss)
    response = api.get(f"/api/v1/releases/{release.pk}/files/hf-dev.jsonl")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == body
    api.force_authenticate(UserFactory(username="ann-s3", roles=["annotator"]))
    assert api.get(f"/api/v1/releases/{release.pk}/files/hf-dev.jsonl").status_code == 403
