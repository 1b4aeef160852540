"""Score a run folder: its instances, its verdicts of one judge, all metrics with intervals."""

from __future__ import annotations

from bemula.judge.pipeline import load_instances
from bemula.metrics.bootstrap import DEFAULT_SEED, N_RESAMPLES
from bemula.metrics.compute import RunScores, compute_scores
from bemula.runfolder.folder import RunFolder


def score_run(
    folder: RunFolder,
    judge: str = "rules",
    *,
    n_resamples: int = N_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> RunScores:
    """All metrics of ``folder`` judged by ``judge``, over the instances the run answered;
    ``scores.unanswered`` lists the planned instances with no answer at all (and their
    questions), which no metric can include."""
    verdicts = folder.verdicts(judge)
    instances = load_instances(folder)
    unanswered_ids = [iid for iid in folder.planned_ids() if iid not in instances]
    unanswered = load_instances(folder, set(unanswered_ids)) if unanswered_ids else {}
    meta = {
        "system": folder.system,
        "backbone": folder.backbone,
        "model": folder.model,
        "run": str(folder.path),
        "dataset_checksum": folder.dataset.checksum,
    }
    scores = compute_scores(
        list(instances.values()),
        verdicts,
        label=folder.label,
        judge=judge,
        n_resamples=n_resamples,
        seed=seed,
        meta=meta,
    )
    scores.unanswered = {
        "instances": unanswered_ids,
        "questions": sum(len(inst.questions) for inst in unanswered.values()),
    }
    return scores
