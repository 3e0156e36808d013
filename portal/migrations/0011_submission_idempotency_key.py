from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('portal', '0010_submission_progressed_at_requeues'),
    ]

    operations = [
        migrations.AddField(
            model_name='submission',
            name='idempotency_key',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.AddConstraint(
            model_name='submission',
            constraint=models.UniqueConstraint(condition=models.Q(('idempotency_key', ''), _negated=True),
                                               fields=('owner', 'idempotency_key'),
                                               name='one_submission_per_idempotency_key'),
        ),
    ]
