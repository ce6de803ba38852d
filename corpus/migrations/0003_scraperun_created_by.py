import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("corpus", "0002_scraperun_heartbeat_at"),
    ]

    operations = [
        migrations.RenameField(
            model_name="scraperun", old_name="requested_by", new_name="created_by"
        ),
        migrations.AlterField(
            model_name="scraperun",
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
