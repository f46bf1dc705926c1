"""Leagues, members, rounds, runs, results, the organiser log and result cards.

Every function is a transaction step (`*_tx`): the league services compose them with the rally
changes, job scheduling and outbox rows of one command, so a round closes (results, points,
cards, posts, job completion) in one transaction or not at all. Read-only helpers take a `Tx`
too and serve `db.read`. Uniqueness is the database's job: one league name per server whatever
its case (`leagues.name_key`, see `bot.store.league_names`), one run per driver and round, one
official run per driver, game and ISO week (`runs_official`): each game with solo runs has its own
world round a week (`world_round_tx`, unique by game and week since migration 12).

The runs that count in a round are those driven in it and those that answer it (`run_answers`):
a driver's one official run of a week also counts in every league round on that week's official
stage of a league they are in (`link_answers_tx`, see `bot/services/league/official_runs.py`). Every
reader of a round's runs below reads both (`runs.COUNTED`).

The store is split by what each file holds: `rows` (the rows and columns), `members` (leagues and
their members), `rounds`, `runs` (and which count in a round), `world` (the world ranking) and
`results` (results, the league log, the cards file); this package gives them under one name.
"""

from __future__ import annotations

from bot.store.leagues.members import (
    all_leagues_tx,
    create_league_tx,
    join_league_tx,
    league_tx,
    leagues_of_guild_tx,
    leave_league_tx,
    member_tx,
    members_tx,
    set_organiser_role_tx,
    set_organisers_tx,
)
from bot.store.leagues.results import (
    cards_tx,
    clear_results_tx,
    log_of_round_tx,
    log_tx,
    logs_of_round_tx,
    moves_of_league_tx,
    put_cards_tx,
    results_of_league_tx,
    results_of_round_tx,
    run_of_thread_tx,
    running_run_thread_tx,
    write_results_tx,
)
from bot.store.leagues.rounds import (
    add_round_tx,
    move_round_tx,
    round_count_tx,
    round_tx,
    rounds_of_league_tx,
    rounds_of_seed_hash_tx,
    set_round_numbers_tx,
    set_round_status_tx,
    world_round_tx,
)
from bot.store.leagues.rows import (
    CLASSIC,
    LEAGUE_COLUMNS,
    LOG_COLUMNS,
    RESULT_COLUMNS,
    ROUND_COLUMNS,
    RUN_COLUMNS,
    Duplicate,
    League,
    LogEntry,
    Result,
    Round,
    Run,
)
from bot.store.leagues.runs import (
    counted_runs_tx,
    faster_runs_tx,
    finish_run_tx,
    finished_count_tx,
    link_answers_tx,
    not_finished_members_tx,
    official_rounds_of_driver_tx,
    official_rounds_of_league_tx,
    official_run_tx,
    rounds_answered_tx,
    run_of_rally_tx,
    run_of_tx,
    runs_of_rally_tx,
    runs_of_round_tx,
    start_run_tx,
)
from bot.store.leagues.world import (
    official_history_tx,
    tied_before_tx,
    world_around_tx,
    world_count_tx,
    world_rank_tx,
    world_top_tx,
)

__all__ = [
    "CLASSIC",
    "LEAGUE_COLUMNS",
    "LOG_COLUMNS",
    "RESULT_COLUMNS",
    "ROUND_COLUMNS",
    "RUN_COLUMNS",
    "Duplicate",
    "League",
    "LogEntry",
    "Result",
    "Round",
    "Run",
    "add_round_tx",
    "all_leagues_tx",
    "cards_tx",
    "clear_results_tx",
    "counted_runs_tx",
    "create_league_tx",
    "faster_runs_tx",
    "finish_run_tx",
    "finished_count_tx",
    "join_league_tx",
    "league_tx",
    "leagues_of_guild_tx",
    "leave_league_tx",
    "link_answers_tx",
    "log_of_round_tx",
    "log_tx",
    "logs_of_round_tx",
    "member_tx",
    "members_tx",
    "move_round_tx",
    "moves_of_league_tx",
    "not_finished_members_tx",
    "official_history_tx",
    "official_rounds_of_driver_tx",
    "official_rounds_of_league_tx",
    "official_run_tx",
    "put_cards_tx",
    "results_of_league_tx",
    "results_of_round_tx",
    "round_count_tx",
    "round_tx",
    "rounds_answered_tx",
    "rounds_of_league_tx",
    "rounds_of_seed_hash_tx",
    "run_of_rally_tx",
    "run_of_thread_tx",
    "run_of_tx",
    "running_run_thread_tx",
    "runs_of_rally_tx",
    "runs_of_round_tx",
    "set_organiser_role_tx",
    "set_organisers_tx",
    "set_round_numbers_tx",
    "set_round_status_tx",
    "start_run_tx",
    "tied_before_tx",
    "world_around_tx",
    "world_count_tx",
    "world_rank_tx",
    "world_round_tx",
    "world_top_tx",
    "write_results_tx",
]
