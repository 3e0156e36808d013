from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('portal', '0009_provenance'),
    ]

    operations = [
        migrations.AddField(
            model_name='submission',
            name='progressed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='submission',
            name='requeues',
            field=models.PositiveSmallIntegerField(default=0, help_text='times the reaper re-queued its jobs'),
        ),
    ]
