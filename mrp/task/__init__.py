"""The shared-task kit: a task definition (TOML), submissions unpacked safely, validated, paired by file
name, scored with the task's metrics, averaged and ranked; scores.json, leaderboards, the detailed page, and
Codabench's scoring-program protocol and bundle (``mrp-evaluate``)."""
