import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("core", "0002_workercheck_heartbeat_at"),
    ]

    operations = [
        migrations.RenameField(
            model_name="workercheck", old_name="requested_by", new_name="created_by"
        ),
        migrations.AlterField(
            model_name="workercheck",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="created by",
            ),
        ),
    ]
