"""The leaderboard: submissions scored against the dev or hidden test split of a release.

A submission answers every question of the split ({question id: answer text}); it is scored on
the server against the release's internal gold file with the normalization of the release's
language, and only the figures are stored and shown: the answers never leave the server.
The leaderboard of a split lists the best submissions (`evaluation.selectors.runs`: a bounded top,
read from an index) beside the release's newest baseline runs and the human performance
measured on the questions in the database (the stored figure the page read,
`evaluation.selectors.human`).

A SQuAD v2.0 release (`release.squad_version == "2.0"`: gold `[]` for an unanswerable
question) is scored the official v2.0 way (`evaluation.metrics.score_v2`): an answer "" says
"no answer", and a submission may add `na_probs` ({id: probability of no answer, in [0, 1]},
for every question of the split) to get best_exact / best_f1 and their thresholds. EM and F1
(the ranking) are v2.0's overall "exact" and "f1"; HasAns_*, NoAns_*, best_* and the
no-answer classification (FQuAD 2.0's F1 on telling unanswerable questions apart) are stored
in `Submission.metrics` and shown beside them.

The package: `submissions` takes a submission in and scores it, `checks` refuses what is
wrong with it by field, `board` ranks the rows of a split.
"""
