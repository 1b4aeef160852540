"""The run-folder contract: every file a run folder holds, its typed model, and the one
reader and writer that run, judge, audit, score and report go through.

- ``names``: the file names; ``records``: ``AnswerRecord``, ``VerdictRecord`` (``Unscored``);
- ``meta``: ``RunMeta`` (``meta.json``, versioned) and the identity a resume must match;
- ``jsonl``: append with fsync, torn-tail repair, errors naming ``file:line``, atomic writes;
- ``folder``: ``RunFolder``, a run folder opened for reading; ``dumps``: store dumps and
  receipts; ``lock``: one writer per folder.

It sits below the stages that use it (run, judge, audit, metrics, report) and above the
data model and the memory-system protocol it records.
"""
