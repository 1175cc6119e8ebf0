"""What the rate limits keep (``scoring.guards.limits``): a bucket per client and limit."""

from __future__ import annotations

from datetime import timedelta

from django.db import models, transaction
from django.utils import timezone


class RateBucket(models.Model):
    """What is left of one client's rate for one kind of write, as healthchecks' TokenBucket
    keeps it: ``tokens`` requests, refilled at the rate's pace since ``updated_at``. A row per
    client and limit in the database every app server shares, taken under its row lock, so
    requests arriving at once each count."""

    key = models.CharField(max_length=100, unique=True)  # "new-game:203.0.113.7"
    tokens = models.FloatField()
    updated_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.key

    @classmethod
    def take(cls, key: str, capacity: int, seconds: float) -> bool:
        """Take one request from the bucket ``key`` (``capacity`` requests a ``seconds``
        window, refilled evenly); False, and nothing taken, when it is empty."""
        now = timezone.now()
        with transaction.atomic():
            bucket, created = cls.objects.select_for_update().get_or_create(
                key=key, defaults={"tokens": capacity, "updated_at": now}
            )
            if created:  # a new client: buckets no client used for a day go
                cls.objects.filter(updated_at__lt=now - timedelta(days=1)).delete()
            else:
                refilled = (now - bucket.updated_at).total_seconds() * capacity / seconds
                bucket.tokens = min(capacity, bucket.tokens + refilled)
            if bucket.tokens < 1:
                return False
            bucket.tokens -= 1
            bucket.updated_at = now
            bucket.save(update_fields=["tokens", "updated_at"])
        return True
