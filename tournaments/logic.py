"""Tournament rules as plain data and functions: seeding, tables, advancement, arena pairing and
points, standings and prize payouts (RULES.md, "Tournaments"). No Django import, like the engine:
the services feed it ids and numbers and write what it returns.

A seat is a player id (int) or ``BOT`` (None). Every payout function returns integers that add up
to the pool exactly, none below zero; the rounding remainder goes to the winner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.kart.scoring import prize_split as kart_prize_split
from games.engine.scoring import Scoring, largest_remainder, scoring_for

BOT = None

KNOCKOUT = "knockout"
ARENA = "arena"

COUNTDOWN = "countdown"
PENALTY = "penalty"

#: Source 001's prize-pool cut-off per match length (40 for a 1-hand match, 80 for 3 hands).
PENALTY_PRIZE_LIMITS = {1: 40, 3: 80}
#: The winner of a knockout gets at least this share of the pool, in percent.
WINNER_MIN_PERCENT = 75
#: Arena payouts for the top three (*interpretation*, RULES.md).
ARENA_PRIZE_PERCENTS = (50, 30, 20)

# Arena points of a finished hand: the finisher gets the hand's value (countdown's scale).
ARENA_NORMAL = 2
ARENA_PAIRS = 8
ARENA_UNORDERED_COLOR = 8
ARENA_ORDERED_COLOR = 16  # interpretation: the rarest finish, worth a pairs + okey finish
ARENA_INDICATOR = 1


@dataclass(frozen=True)
class Entrant:
    player_id: int
    rating: float = 0.0


# -- seeding and tables ------------------------------------------------------------------------------


def seed_order(entrants: Iterable[Entrant]) -> list[int]:
    """Strongest first; equal ratings in id order, so a seeding is always reproducible."""
    return [entrant.player_id for entrant in sorted(entrants, key=lambda e: (-e.rating, e.player_id))]


def table_count(players: int, table_size: int = 4) -> int:
    if players < 0 or table_size < 2:
        raise ValueError("need a table of at least two and a non-negative number of players")
    return -(-players // table_size)


def seeded_tables(seeded: Sequence[int], table_size: int = 4) -> list[list[int | None]]:
    """Seat players (strongest first) at tables so the strongest meet late, bots in the gaps.

    Snake order: seeds 1..T go to tables 1..T, seeds T+1..2T back from table T to 1, and so on, so
    the top T seeds sit at T different tables and every table gets a similar mix. The seats the
    players do not fill are the last ones of the snake: at most ``table_size - 1`` bots, spread
    over different tables where there are enough, and never a table of bots only.
    """
    if len(set(seeded)) != len(seeded):
        raise ValueError("a player can sit at one table only")
    count = table_count(len(seeded), table_size)
    tables: list[list[int | None]] = [[] for _ in range(count)]
    for index in range(count * table_size):
        row, column = divmod(index, count)
        table = column if row % 2 == 0 else count - 1 - column
        tables[table].append(seeded[index] if index < len(seeded) else BOT)
    return tables


# -- knockout ------------------------------------------------------------------------------------------


def table_ranking(seats: Sequence[int | None], scores: Sequence[int], scoring: str | Scoring,
                  seed_rank: dict[int, int] | None = None) -> list[int]:
    """Seat numbers from best to worst: countdown high score first, penalty low first.

    A tie goes to the better seed (a bot is the worst seed), then to the lower seat number.
    """
    if len(seats) != len(scores):
        raise ValueError("one score per seat")
    seed_rank = seed_rank or {}
    worst = len(seed_rank) + 1

    def key(seat: int) -> tuple:
        # The engine says which way scores go (a classic preset's name, or a game type's own Scoring).
        score = (scoring_for(scoring) if isinstance(scoring, str) else scoring).sort_key(scores[seat])
        player = seats[seat]
        return (score, worst if player is BOT else seed_rank.get(player, worst - 1), seat)

    return sorted(range(len(seats)), key=key)


def advancers(seats: Sequence[int | None], ranking: Sequence[int], go_on: int,
              out: Iterable[int] = ()) -> list[int]:
    """The best-placed ``go_on`` persons of a table (a bot never goes on, nor a removed player)."""
    if go_on not in (1, 2):
        raise ValueError("the top one or two of a table go on")
    gone = set(out)
    people = [seats[seat] for seat in ranking if seats[seat] is not BOT and seats[seat] not in gone]
    return people[:go_on]


def is_final_round(players: int, table_size: int = 4) -> bool:
    return players <= table_size


def knockout_rounds(players: int, go_on: int, table_size: int = 4) -> int:
    """How many rounds a knockout of ``players`` takes (each table sends ``go_on`` on)."""
    if players < 1:
        return 0
    rounds = 1
    while not is_final_round(players, table_size):
        players = min(players, table_count(players, table_size) * go_on)
        rounds += 1
    return rounds


@dataclass(frozen=True)
class TableResult:
    """One finished knockout table: its seats and their places (0 = first), the round it was in."""

    round: int
    seats: tuple[int | None, ...]
    ranking: tuple[int, ...]  # seat numbers best to worst


def knockout_standings(results: Sequence[TableResult], removed: Iterable[int] = ()) -> list[int]:
    """Final places: the further a player got, the better; in one round, the better place among
    the table's people (bots not counted); then the lower id. Removed players (banned,
    disqualified) come last, in id order."""
    gone = set(removed)
    best: dict[int, tuple[int, int]] = {}
    for result in results:
        people = [result.seats[seat] for seat in result.ranking if result.seats[seat] is not BOT]
        for place, player in enumerate(people):
            key = (-result.round, place)
            if player not in best or key < best[player]:
                best[player] = key
    placed = sorted((p for p in best if p not in gone), key=lambda p: (*best[p], p))
    return placed + sorted(p for p in best if p in gone)


# -- arena ---------------------------------------------------------------------------------------------


#: The game name of a Kart Okey tournament's rules (its prizes and arena points are its own).
KART = "kart"


def hand_winner(entry: dict) -> int | None:
    """The seat that finished (went out) in a match history entry, or None (the pile or the stock
    ran out, or the hand was ended): tile games name a ``finisher``, Kart Okey a ``winner``."""
    if entry.get("reason") != "finished":
        return None
    seat = entry.get("finisher", entry.get("winner"))
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def arena_hand_points(entry: dict, players: int, *, game: str = "") -> list[int]:
    """Tournament points of one finished hand, per seat, from the match history entry the engine
    wrote: the finisher gets the hand's value (2 normal, 8 pairs or a one-colour finish, doubled for
    an okey finish, x4 for a double okey); each shown indicator gives its owner 1.

    Kart Okey (``game="kart"``; *interpretation*, RULES.md "Tournaments" names the tile games'
    values only): the player who went out scores 2, doubled to 4 for going rummy (the whole hand
    down in one turn, RULES.md "Kart Okey" rule 6), as an okey finish doubles a tile hand; a hand
    that ended at the second stock out (rule 7) has no winner and scores nobody anything. Penalty
    points are not turned into tournament points: the arena rewards winning hands, as at tiles."""
    points = [0] * players
    if game == KART:
        winner = hand_winner(entry)
        if winner is not None and 0 <= winner < players:
            points[winner] += ARENA_NORMAL * (2 if entry.get("rummy") else 1)
        return points
    for seat in entry.get("shown_indicators") or ():
        if 0 <= seat < players:
            points[seat] += ARENA_INDICATOR
    finisher = entry.get("finisher")
    if entry.get("sheet") and entry.get("reason") == "finished" and finisher is not None and 0 <= finisher < players:
        # 101: the hand's value is 2 times its finish multiplier (okey finish, pairs finish, elden: ×2 each).
        points[finisher] += ARENA_NORMAL * entry["sheet"][finisher]["multiplier"]
        return points
    if entry.get("reason") == "finished" and finisher is not None and 0 <= finisher < players:
        color = entry.get("color")
        if color == "ordered":
            value = ARENA_ORDERED_COLOR
        elif entry.get("kind") == "pairs" or color == "unordered":
            value = ARENA_PAIRS if entry.get("kind") == "pairs" else ARENA_UNORDERED_COLOR
        else:
            value = ARENA_NORMAL
        if entry.get("double_okey"):
            value *= 4
        elif entry.get("okey_finish"):
            value *= 2
        points[finisher] += value
    return points


@dataclass(frozen=True)
class ArenaPlayer:
    player_id: int
    points: int
    rating: float = 0.0
    waited: float = 0.0  # seconds since they became free


def arena_tables(free: Sequence[ArenaPlayer], *, table_size: int = 4, playing: int = 0,
                 max_wait: float = 15.0) -> tuple[list[list[int | None]], list[int]]:
    """Seat free players with others of similar tournament score: (tables, still waiting).

    Players sorted by points (then rating) are cut into tables of ``table_size``. The few left
    over wait for players still at tables to come free — unless nobody else is playing enough to
    fill their table, or one of them has waited ``max_wait`` seconds: then bots fill the seats.
    """
    ordered = sorted(free, key=lambda p: (-p.points, -p.rating, p.player_id))
    ids = [p.player_id for p in ordered]
    if len(set(ids)) != len(ids):
        raise ValueError("a player can sit at one table only")
    full = len(ids) - len(ids) % table_size
    tables: list[list[int | None]] = [ids[start:start + table_size] for start in range(0, full, table_size)]
    rest = ordered[full:]
    if not rest:
        return tables, []
    missing = table_size - len(rest)
    if playing < missing or max(p.waited for p in rest) >= max_wait:
        tables.append([p.player_id for p in rest] + [BOT] * missing)
        return tables, []
    return tables, [p.player_id for p in rest]


def arena_standings(players: Sequence[ArenaPlayer], hands_won: dict[int, int] | None = None) -> list[int]:
    """By points, then hands won, then the lower rating (the underdog's points count for more),
    then id."""
    hands_won = hands_won or {}
    return [p.player_id for p in sorted(
        players, key=lambda p: (-p.points, -hands_won.get(p.player_id, 0), p.rating, p.player_id))]


# -- prizes --------------------------------------------------------------------------------------------


#: The scoring name a 101 tournament's prizes are paid by (its rules have no preset).
OKEY101 = "okey101"


def knockout_prizes(pool: int, final: Sequence[tuple[int | None, int]], *, scoring: str,
                    hands_per_match: int = 1, out: Iterable[int] = ()) -> dict[int, int]:
    """Pay the final table as source 001's prize pool: {player id: chips}.

    ``final``: (player or BOT, match score) best placed first. The winner (best-placed person) gets
    at least 75 %; the other 25 % goes to the other finalists under the limit, in proportion to how
    far under it they are — penalty: 40 points for a 1-hand match, 80 for 3; countdown
    (*interpretation*): players with points left, in proportion to them. Bots and removed players get
    nothing; what nobody qualifies for, and every rounding remainder, goes to the winner.
    """
    if pool < 0:
        raise ValueError("a prize pool cannot be negative")
    gone = set(out)
    people = [(player, score) for player, score in final if player is not BOT and player not in gone]
    if not people or pool == 0:
        return {}
    winner = people[0][0]
    others = people[1:]
    if scoring == PENALTY:
        limit = PENALTY_PRIZE_LIMITS.get(hands_per_match, 40)
        weights = [max(0, limit - score) for _, score in others]
    elif scoring == OKEY101:
        # 101 (*interpretation*: its totals have no 40/80 scale): in proportion to how far under
        # the final table's highest total each is, so the last placed gets nothing.
        highest = max(score for _, score in final)
        weights = [max(0, highest - score) for _, score in others]
    else:
        weights = [max(0, score) for _, score in others]
    rest = pool * (100 - WINNER_MIN_PERCENT) // 100 if any(weights) else 0
    shares = largest_remainder(rest, weights)
    payout = {player: share for (player, _), share in zip(others, shares, strict=True) if share}
    payout[winner] = pool - sum(payout.values())
    return payout


def kart_knockout_prizes(pool: int, final: Sequence[tuple[int | None, int]], *, had_winner: bool, limit: int,
                         order: Sequence[int] | None = None, out: Iterable[int] = ()) -> dict[int, int]:
    """Pay a Kart Okey final table by its own rule 9 (RULES.md "Kart Okey", source 004's table):
    {player id: chips}, by ``games.engine.kart.scoring.prize_split``.

    ``final``: (player or BOT, table total) per seat, in seat order; ``had_winner``: some hand of the
    table was won (the engine's ``winners`` is not empty); ``limit``: the rules' ``prize_limit``
    (80 × hands); ``order``: the seats in play order from the table's first starting seat (where
    remainders go). Bots and removed or absent finalists take no part: the split is made among the
    people who played, the lowest total among them being the winner (ties share the winner's
    part), as a bot never goes on and the best-placed person goes instead. The shares add up to
    the pool; when no person is left, nothing is paid.
    """
    if pool < 0:
        raise ValueError("a prize pool cannot be negative")
    gone = set(out)
    seats = [seat for seat, (player, _) in enumerate(final) if player is not BOT and player not in gone]
    if not seats or pool == 0:
        return {}
    points = [final[seat][1] for seat in seats]
    winners = [index for index, total in enumerate(points) if total == min(points)] if had_winner else []
    play = [seat for seat in (order if order is not None else range(len(final))) if seat in seats]
    shares = kart_prize_split(pool, points, winners, limit=limit, order=[seats.index(seat) for seat in play])
    return {final[seat][0]: share for seat, share in zip(seats, shares, strict=True) if share}


def arena_prizes(pool: int, standings: Sequence[int]) -> dict[int, int]:
    """The top three get 50/30/20 % of the pool; with fewer players, and for rounding, the rest goes
    to the winner."""
    if pool < 0:
        raise ValueError("a prize pool cannot be negative")
    if not standings or pool == 0:
        return {}
    payout: dict[int, int] = {}
    for player, percent in zip(standings[1:3], ARENA_PRIZE_PERCENTS[1:], strict=False):
        share = pool * percent // 100
        if share:
            payout[player] = share
    payout[standings[0]] = pool - sum(payout.values())
    return payout
