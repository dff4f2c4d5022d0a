#!/usr/bin/env python3
"""Mancala Games' differential driver (diff.py, beside its engine) taught these things, then run
as it is:

  * every house (Mancala Games' "children") of each player is compared, as a sorted list of
    [side, pit] (the driver alone keeps one a player);
  * the stones in a house count for its owner, in Ludus as in Mancala Games (the driver moves
    a child's seeds to its owner's store when it compares); a configuration listed with
    "keeps": true is written with houses that keep their stones (`[house] keeps`), and a
    position re-synchronised from Mancala Games leaves them in their houses;

a configuration whose first two moves are sown the rules' way whatever way they name (Mancala
Games' NO_UDIR_FIRSTS) has its moves of the other way named the rules' way there, as Ludus
names them;

and, of games whose pits change owner (Mancala Games' goal TERRITORY) or whose moves start
from any pit of the board (its no_sides):

  * a move there names a pit of either row, (row, pos, direction): a pit across the board from
    the mover is written `o` and its number on that side, as Ludus writes it (`o3`), and a pit
    sown either way carries its way round (`3cw`, `o3ccw`);
  * the owners of the pits are compared at every step: the driver compares pits, stores,
    houses and closed pits only, so a territory game's owners ride in its `houses` field (list
    such a configuration with "houses": true; these games have no houses), and a
    re-synchronised position carries them (and who started the round, which a leftover may
    go to).

A game whose players own the East and West halves of the board (Mancala Games' EastWestCycle
classes: each player sows round a loop of their own 2 x holes/2 pits) is compared with Ludus's
`rows = 2` board of holes/2 pits a row: player 0 (Mancala Games' False, South) owns the loop
from hole holes/2 of the bottom row (locations holes/2 .. 3*holes/2 - 1), player 1 the loop from
location 3*holes/2; pit k is the k-th location of the player's loop in the sowing order.

Mancala Games keeps its count of repeat turns (for "only one repeat turn": Ali Guli Mane) across
a pass, so the player after a pass may be refused a first repeat turn; its own description
allows one repeat turn a turn, so the wrapper starts the count afresh at a pass.

A move sowing the mover's store (Mancala Games' PLAY_LOCS: its move (-(turn + 1), seeds)) is
written as Ludus writes it: `s` when it sows all the store's seeds, `s:n` when n of them.

A configuration listed with "pooled": true has its two stores compared as one: Mancala Games
puts the seeds its rules take out of play (a seed sown towards a closed pit across the board)
in South's store, while its rules text and Ludus keep them out of play in that pit, its owner's
(the driver adds a closed pit's stones to its owner's store).

A configuration listed with "dealt": true scatters its stones at random as a game (or round)
begins (Mancala Games' random start patterns, Ludus's `[setup] scatter`): the two engines draw
differently, so Ludus is given Mancala Games' deal (the protocol's `deal` in `new` and `next`).

A configuration listed with "arranged": true starts each later round from a layout its round's
loser arranges (Ludus's `[match] arrange`): Mancala Games, played without its user interface,
lays the loser's stones out itself, so the driver plays that layout to Ludus as the arranging
player's placements (the protocol's `play`), then `done` for the stones it keeps in store.

A configuration listed with "lot": true gives the pit a round's winner fills exactly half to one
player by lot (Ludus's `[match] contested = "lot"`): the two engines draw differently, so Ludus
is given Mancala Games' draw (the protocol's `deal` in `next`: `[[1], [0]]`, player 0 wins it).

A configuration whose list entry names an "mg_fix" is played with Mancala Games corrected where
it contradicts its own rules text (the entry's note says where): "capt-both-dir", a capture
that walks both ways tests the second way afresh; "tally-round-pattern", a round of a tallied
match lays out its start pattern for the round's real starter; "terr-round-pattern", so does a
round whose pits changed owner; "divert-counts-hand", the last stones of the game, whose
sowing goes to the opponent, are counted with those in hand; "ram-every-move", a pit that holds
enough stones to be a ram is one after every move, an extra turn's too.

A move paused for the pit its captured stones go into (Ludus's `capture.to = "pick"`, the
STATE's decision "place") holds them in hand; Mancala Games keeps them in the mover's store
until they are placed: the wrapper counts them there.

A move Mancala Games cuts off by its guard against endless sowing (75 relay lifts, the seeds in
hand dropped: not a rule) may end a match there, or end the game with another final position or
winner than the rules give; such a disagreement (match-end, position, winner) is flagged
`mg_endless`, as the driver flags an ending one.

usage: python3 mg_territory.py DRIVER_DIR LUDUS --configs FILE.json [diff.py's options]
"""

import json
import os
import sys
import types

sys.path.insert(0, os.path.abspath(sys.argv.pop(1)))
import diff  # noqa: E402

import two_cycle  # noqa: E402  (beside diff.py's engine, on the path it set up)

gi = diff.gi
_mg_move_text = diff.mg_move_text
_diff_mg_view = diff.mg_view
_ludus_view = diff.ludus_view


def east_west(game):
    return isinstance(game, two_cycle.EastWestCycle)


def ew_loops(game):
    """Each player's loop of locations, in sowing order, on an East/West board."""
    n = game.cts.holes
    half, dbl = n // 2, 2 * n
    return [[(half + i) % dbl for i in range(n)], [(3 * half + i) % dbl for i in range(n)]]


def _mg_view(game):
    """The driver's view of Mancala Games' position, East/West pits in each player's loop."""
    v = _diff_mg_view(game)
    if east_west(game):
        v['pits'] = [[game.board[loc] for loc in loop] for loop in ew_loops(game)]
    return v


def territory(game):
    return game.info.goal == gi.Goal.TERRITORY


def owners(game):
    """Who owns each pit, per side in Ludus's numbering (North's pit k is loc holes + k - 1)."""
    n = game.cts.holes
    return [[int(game.owner[loc]) for loc in range(n)],
            [int(game.owner[loc]) for loc in range(n, 2 * n)]]


def mg_move_text(game, move, turn):
    # A move sowing the mover's store (its PLAY_LOCS): (-(turn + 1), seeds), written `s`
    # when it sows all the store's seeds and `s:n` when n of them, as Ludus writes it.
    if isinstance(move, tuple) and len(move) == 2 and isinstance(move[0], int) and move[0] < 0:
        seeds = move[1]
        return 's' if seeds == game.store[int(turn)] else f's:{seeds}'
    text = pit_text(game, move, turn)
    # The first two moves of a game sown the rules' way whatever the way named (its
    # NO_UDIR_FIRSTS): Mancala Games lists both ways, which sow alike; Ludus has the one.
    if (game.info.prescribed == gi.SowPrescribed.NO_UDIR_FIRSTS and game.movers <= 1
            and text.endswith('cw') and not text.endswith('ccw')):
        text = text[:-2] + ('ccw' if game.info.sow_direct == gi.Direct.CCW else 'cw')
    return text


def pit_text(game, move, turn):
    if not (isinstance(move, tuple) and game.info.mlength == 3):
        return _mg_move_text(game, move, turn)
    row, pos, direct = move
    loc = game.cts.xlate_pos_loc(row, pos)
    n = game.cts.holes
    if east_west(game):
        side = next(s for s, loop in enumerate(ew_loops(game)) if loc in loop)
        k = ew_loops(game)[side].index(loc) + 1
    else:
        side, k = (0, loc + 1) if loc < n else (1, loc - n + 1)
    text = str(k) if side == int(turn) else f'o{k}'
    if direct is not None:
        text += 'cw' if direct == gi.Direct.CW else 'ccw'
    return text


def children(game):
    """Each player's houses (Mancala Games' children) as sorted [side, pit] lists."""
    n = game.cts.holes
    out = [[], []]
    for loc in range(2 * n):
        owner = game.child[loc]
        if owner is not None and owner in (False, True):
            out[int(owner)].append([int(loc >= n), loc - n * int(loc >= n) + 1])
    return [sorted(h) for h in out]


def as_lists(houses):
    """Ludus's STATE houses, one `[side, pit]` or null a player, or lists of them: as lists."""
    out = []
    for h in houses:
        if not h:
            out.append([])
        elif isinstance(h[0], list):
            out.append(sorted(list(x) for x in h))
        else:
            out.append([list(h)])
    return out


def pooled(v):
    if CURRENT.get('pooled'):
        v['stores'] = [v['stores'][0] + v['stores'][1], 0]
    return v


def mg_view(game):
    v = pooled(_mg_view(game))
    if game.info.child_type:
        v['houses'] = children(game)
    if territory(game):
        v['houses'] = v['houses'] + [owners(game)]
    return v


# The configuration being run (set around diff.run_config).
CURRENT = {}


def ludus_view(st, with_houses, with_closed):
    st = dict(st)
    decision = st.get('decision') or {}
    if decision.get('question') == 'place':
        stores = list(st['stores'])
        stores[decision['mover']] += decision['in_hand']
        st['stores'] = stores
    if st.get('houses'):
        pits = [list(r) for r in st['pits']]
        stores = list(st['stores'])
        for owner, places in enumerate(as_lists(st['houses'])):
            for side, k in places:
                stores[owner] += pits[side][k - 1]
                pits[side][k - 1] = 0
        st['pits'], st['stores'] = pits, stores
    v = pooled(_ludus_view(st, with_houses, with_closed))
    if with_houses and st.get('houses'):
        v['houses'] = as_lists(st['houses'])
    if with_houses and 'owners' in st:
        v['houses'] = v['houses'] + [st['owners']]
    return v


def ludus_state_from_mg(game, turn):
    v = _mg_view(game)
    if CURRENT.get('keeps'):
        n = game.cts.holes
        v['pits'], v['stores'] = [game.board[:n], game.board[n:]], list(game.store)
    st = dict(to_move=int(turn), pits=v['pits'], stores=v['stores'], ply=game.mcount - 1,
              starter=int(game.starter))
    if game.info.child_type:
        st['houses'] = children(game)
    if game.info.rounds:
        st['out_of_play'] = v['closed']
    if territory(game):
        st['owners'] = owners(game)
    return st


import mancala  # noqa: E402

_move = mancala.Mancala.move
LAST_MOVE = {'endless': False}


def move(self, m):
    r = _move(self, m)
    if m == gi.PASS_TOKEN:
        self.rturn_cnt = 0
    LAST_MOVE['endless'] = getattr(self.mdata, 'ended', None) == gi.WinCond.ENDLESS
    return r


def dumps(obj, **kwargs):
    # The driver flags an 'end' disagreement itself; the others a cut-off move leads to (a
    # match ended, a different final position or winner) are flagged here.
    if (isinstance(obj, dict) and obj.get('kind') in ('match-end', 'position', 'winner')
            and LAST_MOVE['endless']):
        obj = dict(obj, mg_endless=True)
    return json.dumps(obj, **kwargs)


_make_game = diff.man_config.make_game
_req = diff.Ludus.req
MG_GAME = {}


def make_game(*args, **kwargs):
    made = _make_game(*args, **kwargs)
    MG_GAME['game'] = made[0]
    return made


def req(self, **obj):
    if CURRENT.get('dealt') and obj.get('op') in ('new', 'next'):
        obj['deal'] = _mg_view(MG_GAME['game'])['pits']
    if CURRENT.get('lot') and obj.get('op') == 'next':
        lot = mg_lot(self)
        if lot is not None:
            obj['deal'] = lot
    r = _req(self, **obj)
    if CURRENT.get('arranged') and obj.get('op') == 'next' and r.get('ok'):
        r = arrange_as_mg(self, r)
    return r


def mg_lot(lud):
    """Mancala Games' draw for the pit the round's winner fills exactly half, as a deal (None
    when the round just over leaves no such pit)."""
    game = MG_GAME['game']
    held = _req(lud, op='state')['state']['match']['points']
    n, refill = game.cts.holes, game.cts.seed_equiv
    if held[0] == held[1] or 2 * (max(held) % refill) != refill:
        return None
    winner = int(held[1] > held[0])
    k = max(held) // refill + 1
    if k > 2 * n:
        return None
    loc = (winner * n + k - 1) % (2 * n)
    won = int(game.owner[loc])
    return [[1 - won], [won]]


def arrange_as_mg(lud, r):
    """Plays Mancala Games' layout of the new round to Ludus as the arranging player's
    placements, then `done` if they keep stones in hand."""
    hands = r['state'].get('to_place') or [0, 0]
    placer = next((p for p in (0, 1) if hands[p] > 0), None)
    if placer is None:
        return r
    # A stone a pit at a time, round the pits: a layout's rules may fill every pit first.
    layout = _mg_view(MG_GAME['game'])['pits'][placer]
    for layer in range(max(layout)):
        for k in (k for k, count in enumerate(layout, start=1) if count > layer):
            r = _req(lud, op='play', move=str(k))
            if not r.get('ok'):
                return r
    if (r['state'].get('to_place') or [0, 0])[placer] > 0:
        r = _req(lud, op='play', move='done')
    return r


_run_config = diff.run_config


import capturer  # noqa: E402
import fill_patterns  # noqa: E402
import new_game  # noqa: E402
import sower  # noqa: E402

_capt_center = capturer.CaptBothDir.capt_center
_tally_new_game = new_game.NewRoundTally.new_game
_terr_new_game = new_game.TerritoryNewRound.new_game
_opp_capts_last = sower.SowOppCaptsLast.sow_seeds
_do_sow = mancala.Mancala.do_sow


def capt_center_fixed(self, mdata, capt_first):
    """CaptBothDir.capt_center with the walk against the sowing tested afresh: the original
    leaves mdata.captured set by the walk along the sowing, so a column that does not match
    there does not stop the other walk."""
    self.decorator.do_captures(mdata, capt_first)
    capt_loc = mdata.capt_loc
    if not mdata.captured:
        return False
    mdata.captured = False
    mdata.direct = mdata.direct.opp_dir()
    self.decorator.max_capt -= 1
    mdata.capt_loc = self.game.deco.incr.incr(mdata.capt_start, mdata.direct, mdata.player)
    self.decorator.do_captures(mdata, capt_first)
    self.decorator.max_capt += 1
    mdata.capt_loc = capt_loc
    mdata.captured = True
    return True


def tally_new_game_fixed(self, new_round=False):
    """NewRoundTally.new_game with the round's start pattern laid out for the round's starter
    (the original lays it out before it makes the loser the starter)."""
    _tally_new_game(self, new_round)
    if new_round and self.game.info.start_pattern:
        fill_patterns.PCLASSES[self.game.info.start_pattern].fill_seeds(self.game)


def terr_new_game_fixed(self, new_round=False):
    """TerritoryNewRound.new_game with the round's start pattern laid out for the round's starter
    (the original lets NewGame alternate the starter back before the pattern is laid)."""
    _terr_new_game(self, new_round)
    if new_round and self.game.info.start_pattern:
        fill_patterns.PCLASSES[self.game.info.start_pattern].fill_seeds(self.game)


def opp_capts_last_fixed(self, mdata):
    """SowOppCaptsLast.sow_seeds with the seeds in hand counted as in play ("when down to the
    last seeds"): the original counts the board once the lap's seeds are lifted."""
    if sum(self.game.board) + mdata.seeds > self.game.info.sow_param:
        self.decorator.sow_seeds(mdata)
        return
    _opp_capts_last(self, mdata)


def do_sow_ram_every_move(self, move, single=False):
    """Mancala.do_sow with the rams marked after a move that earns another turn too ("rams are
    made when a hole has sufficient seeds"): the original marks them in the capture step,
    which an extra turn skips, so the extra turn may sow a pit that is a ram."""
    mdata = _do_sow(self, move, single)
    if mdata.repeat_turn and self.info.child_type == gi.ChildType.RAM:
        start = mdata.capt_start
        for loc in range(self.cts.dbl_holes):
            mdata.capt_start = loc
            ram = self.deco.make_child.test(mdata)
            if ram and not self.child[loc]:
                self.child[loc] = gi.NO_CH_OWNER
            elif not ram and self.child[loc]:
                self.child[loc] = None
        mdata.capt_start = start
    return mdata


# Where Mancala Games contradicts its own rules text, a configuration's list entry may name the
# fix (`"mg_fix"`), made for its games alone; the entry's note says why.
MG_FIXES = {
    'capt-both-dir': (capturer.CaptBothDir, 'capt_center', capt_center_fixed),
    'tally-round-pattern': (new_game.NewRoundTally, 'new_game', tally_new_game_fixed),
    'terr-round-pattern': (new_game.TerritoryNewRound, 'new_game', terr_new_game_fixed),
    'divert-counts-hand': (sower.SowOppCaptsLast, 'sow_seeds', opp_capts_last_fixed),
    'ram-every-move': (mancala.Mancala, 'do_sow', do_sow_ram_every_move),
}


def run_config(name, cfg, *args, **kwargs):
    CURRENT.clear()
    CURRENT.update(cfg)
    fixes = [MG_FIXES[f] for f in cfg.get('mg_fix', [])]
    saved = [(cls, attr, getattr(cls, attr)) for cls, attr, _ in fixes]
    for cls, attr, fixed in fixes:
        setattr(cls, attr, fixed)
    try:
        return _run_config(name, cfg, *args, **kwargs)
    finally:
        for cls, attr, original in saved:
            setattr(cls, attr, original)


diff.run_config = run_config
diff.man_config.make_game = make_game
diff.Ludus.req = req
mancala.Mancala.move = move
# The driver writes its log with json.dumps: the flag is added there.
diff.json = types.SimpleNamespace(
    **{k: getattr(json, k) for k in dir(json) if not k.startswith('__')})
diff.json.dumps = dumps
diff.mg_move_text = mg_move_text
diff.mg_view = mg_view
diff.ludus_view = ludus_view
diff.ludus_state_from_mg = ludus_state_from_mg

if __name__ == '__main__':
    diff.main()
