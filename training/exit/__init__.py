"""Expert iteration: ``tabletop train GAME --algo exit`` (Anthony, Tian & Barber, 2017;
AlphaZero's training loop, Silver et al., 2017).

The learner plays with the network-guided search of ``agents.guided``, the network giving
the search its priors and leaf values; the search, looking ahead, plays better than the
network alone, and the network is then fitted to what the search did. Iteration after
iteration: ``exit.games_per_iteration`` self-play games with the network as it stands,
their decisions added to a replay buffer of ``exit.buffer_size`` rows (the oldest games
leaving first), then batches drawn from the whole buffer, ``exit.replay_ratio`` times the
iteration's decisions in rows (AlphaZero's sampling, not passes over the buffer).

Design choices:

- Who plays. A competitive game: the learner's search plays its seat (``seat``, as PPO's
  learner) and the other seats are drawn from the opponent pool of ``[selfplay]`` (the
  baselines, and snapshots of the network joining every ``snapshot_every`` steps, which
  play as the bare network, sampling), as in PPO; or, with ``exit.opponents = "self"``,
  the learner's search plays every seat and every seat's decisions are rows. A cooperative
  game: the learner's search plays every seat.
- Targets. At each learner decision, the share of the search's root visits each legal
  action got: the policy head learns it by cross-entropy over the legal actions (the
  masked distribution the agents play from). The value head learns the final return of
  the seat that decided (the team's in a cooperative game) by squared error, weighted by
  ``exit.value_weight``. Self-play searches add Dirichlet noise at the root, and the
  learner's first ``exit.temperature_moves`` decisions of a game are drawn from the visits
  with ``exit.temperature``, the later ones the most visited move.
- Steps. A step is a learner decision, as for PPO, so ``--steps``, ``checkpoint_every``,
  ``eval_every`` and ``snapshot_every`` mean the same; the duties fall due after an
  iteration's fit, so a run may pass them (and ``--steps``) by up to an iteration's steps.
- Evaluation and the run's files are BaseTrainer's, as for PPO: the greedy network alone
  is evaluated against the baselines and saved as ``best_policy.pt`` / ``last_policy.pt``;
  with the search it plays as ``guided:policy=RUN``. The checkpoint (``checkpoint.pt``)
  holds the network, the optimiser, the replay buffer and the games played, so a resumed
  run continues with the same rows and deals.
- Start. ``exit.init`` names a policy file or run directory of the game (e.g. a PPO run),
  or ``pretrained`` for the policy the package ships for the game: the run starts from its
  weights and takes its network's shape. Without it, the ``[imitation]`` warm start runs
  when it has games, as before PPO; else random weights.
- Where games run. In the learner's process, one after the other, each iteration's
  searches reading a numpy copy of the network. Worker processes
  (``matches.runner.run_tasks``) did not pay on the 2 shared cores: six Kaleva games of
  100-iteration searches took 5.2 s here and 9.8 s in two workers, each game 1.0-3.3x
  slower there besides the workers' start (2026-12-05, load average about 4).
- Memory. A search tree lives for one decision; the buffer holds at most
  ``exit.buffer_size`` rows, observations as sparse rows.
"""
