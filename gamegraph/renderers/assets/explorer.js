/* The graph explorer's page script (gamegraph/renderers/explorer.py says what it shows).
 * Data: the JSON in #gg-meta and the gzip block in #gg-data. Game text is only ever set
 * with textContent, or escaped (esc) where plotly reads HTML-like markup. */
(function () {
  'use strict';
  var body = document.body;
  var errors = [];
  function note(text) { errors.push(String(text)); body.dataset.errors = errors.join(' | '); }
  window.addEventListener('error', function (e) { note(e.message); });
  window.addEventListener('unhandledrejection', function (e) { note(e.reason); });
  var consoleError = console.error;
  console.error = function () {
    note(Array.prototype.join.call(arguments, ' '));
    consoleError.apply(console, arguments);
  };

  var META = JSON.parse(document.getElementById('gg-meta').textContent);
  var N = META.n, P = META.policies.length, START = META.start;
  var D = {};          // the arrays, by name
  var TEXT = '';       // every label, one after another
  var LOWER = null;    // TEXT in lower case, made on the first search
  var OFF, OPTR, OPT;  // label, throw and option offsets (prefix sums of the counts)
  var PRED = null;     // predecessors, made on first use
  var MAX_VIEW = 20000, MAX_EDGES = 60000, SPLIT_COLUMN = 40;
  var COLOURS = {blue: '#0072B2', orange: '#E69F00', red: '#D55E00', grey: '#bdbdbd'};
  var VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];
  var state = {policy: 0, view: 'likely', count: 150, group: 0, steps: 2, min: 0.01, sel: -1,
    colour: 'reach'};
  // The game's objective (gamegraph.values): only a win probability is a percentage, and
  // only there is a passing move worth 1 - v; a score or a margin is a number (-v).
  var OBJECTIVE = META.objective || 'win', WINNING = OBJECTIVE === 'win';
  var VALUE_NAME = META.valueName || 'win probability';
  var PASS = WINNING ? 1 : 0;
  var shown = null;    // the view drawn: {states, index, edges...}
  var $ = function (id) { return document.getElementById(id); };

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return '&#' + c.charCodeAt(0) + ';';
    });
  }
  function num(x) {
    if (x === 0) { return '0'; }
    return x >= 1e-4 ? x.toPrecision(4).replace(/\.?0+$/, '') : x.toExponential(2);
  }
  function pct(x) { return (100 * x).toFixed(2) + ' %'; }
  // A value as the page writes it: a probability with 5 decimals, a score or margin
  // with 6 significant digits (12.5452, not 1254.52 %).
  function val(x) {
    if (WINNING) { return x.toFixed(5); }
    var text = Number(x.toPrecision(6)).toString();
    return text === '-0' ? '0' : text;
  }
  // A policy's value from the start: "wins 14.36 %", "expected score 8.1".
  function startValue(x) { return WINNING ? 'wins ' + pct(x) : VALUE_NAME + ' ' + val(x); }
  function fraction(a, b) {
    var x = a, y = b;
    while (y) { var r = x % y; x = y; y = r; }
    return x > 0 && b / x < 1e15 ? (a / x) + '/' + (b / x) : num(a / b);
  }

  // -------------------------------------------------------------------------------------
  // Unpacking
  // -------------------------------------------------------------------------------------
  var TYPES = {i1: Int8Array, i2: Int16Array, i4: Int32Array, u1: Uint8Array,
    f4: Float32Array, f8: Float64Array};
  function decode64(text) {
    var bytes = atob(text), out = new Uint8Array(bytes.length);
    for (var k = 0; k < bytes.length; k++) { out[k] = bytes.charCodeAt(k); }
    return out;
  }
  function gunzip(bytes) {
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer();
  }
  function prefix(counts) {
    var out = new Int32Array(counts.length + 1);
    for (var k = 0; k < counts.length; k++) { out[k + 1] = out[k] + counts[k]; }
    return out;
  }
  function unpack(buffer) {
    META.arrays.forEach(function (a) {
      if (a.type === 'text') {
        TEXT = new TextDecoder('utf-8').decode(new Uint8Array(buffer, a.offset, a.length));
      } else {
        D[a.name] = new TYPES[a.type](buffer, a.offset, a.length);
      }
    });
    OFF = prefix(D.labelLength);
    OPTR = prefix(D.throwCount);
    OPT = prefix(D.optionCount);
  }

  function label(i) { return TEXT.slice(OFF[i], OFF[i + 1]); }
  function reach(p, i) { return D.reach[p * N + i]; }
  function optionValue(o) {
    var t = D.target[o];
    var v = t >= 0 ? D.values[t] : D.outside[-1 - t];
    var q = D.passes[o] ? PASS - v : v;
    return D.reward ? q + D.reward[o] : q;
  }
  function chosen(p, k) { return D.choice[p * (OPTR[N]) + k]; }
  function predecessors() {
    if (PRED) { return PRED; }
    var count = new Int32Array(N + 1), k, o, s, t;
    for (s = 0; s < N; s++) {
      for (k = OPTR[s]; k < OPTR[s + 1]; k++) {
        for (o = OPT[k]; o < OPT[k + 1]; o++) {
          t = D.target[o];
          if (t >= 0 && t !== s) { count[t + 1]++; }
        }
      }
    }
    for (t = 0; t < N; t++) { count[t + 1] += count[t]; }
    var fill = count.slice(0, N), from = new Int32Array(count[N]);
    for (s = 0; s < N; s++) {
      for (k = OPTR[s]; k < OPTR[s + 1]; k++) {
        for (o = OPT[k]; o < OPT[k + 1]; o++) {
          t = D.target[o];
          if (t >= 0 && t !== s) { from[fill[t]++] = s; }
        }
      }
    }
    PRED = {ptr: count, from: from};
    return PRED;
  }
  function neighbours(i, both) {
    var out = [], k, o, t;
    for (k = OPTR[i]; k < OPTR[i + 1]; k++) {
      for (o = OPT[k]; o < OPT[k + 1]; o++) {
        t = D.target[o];
        if (t >= 0 && t !== i) { out.push(t); }
      }
    }
    if (both) {
      var pred = predecessors();
      for (k = pred.ptr[i]; k < pred.ptr[i + 1]; k++) { out.push(pred.from[k]); }
    }
    return out;
  }
  function path(i, p) {
    var steps = [i];
    while (steps[steps.length - 1] !== START) {
      var before = D.parent[p * N + steps[steps.length - 1]];
      if (before < 0 || steps.length > N) { return []; }
      steps.push(before);
    }
    return steps.reverse();
  }
  function moveChance(s, t, p) {
    var total = 0;
    for (var k = OPTR[s]; k < OPTR[s + 1]; k++) {
      var c = chosen(p, k);
      if (c >= 0 && D.target[OPT[k] + c] === t) { total += D.weight[k]; }
    }
    return total / META.denominator;
  }

  // -------------------------------------------------------------------------------------
  // Views: which states to draw
  // -------------------------------------------------------------------------------------
  // The `limit` states of highest reach (ties: the lower index first), best first. One
  // pass keeps the best so far in a heap whose root is the worst of them, so a state that
  // does not beat the root costs one comparison. `candidates` null: every state.
  function topByReach(candidates, limit) {
    var p = state.policy, R = D.reach.subarray(p * N, (p + 1) * N);
    var count = candidates ? candidates.length : N;
    var heap = new Int32Array(Math.min(limit, count)), size = 0, k, s, m;
    function below(a, b) { return R[a] < R[b] || (R[a] === R[b] && a > b); }
    for (var c = 0; c < count; c++) {
      s = candidates ? candidates[c] : c;
      if (size < heap.length) {
        for (k = size++; k > 0 && below(s, heap[(k - 1) >> 1]); k = (k - 1) >> 1) { heap[k] = heap[(k - 1) >> 1]; }
        heap[k] = s;
      } else if (below(heap[0], s)) {
        for (k = 0; (m = 2 * k + 1) < size; k = m) {
          if (m + 1 < size && below(heap[m + 1], heap[m])) { m++; }
          if (!below(heap[m], s)) { break; }
          heap[k] = heap[m];
        }
        heap[k] = s;
      }
    }
    return Array.from(heap).sort(function (a, b) { return R[b] - R[a] || a - b; });
  }
  function allStates() { var out = []; for (var i = 0; i < N; i++) { out.push(i); } return out; }
  function chooseStates() {
    var v = state.view, p = state.policy, i, list = [], noteText = '';
    var limit = Math.min(MAX_VIEW, Math.max(1, state.count));
    if (v === 'likely' || v === 'all') {
      if (v === 'all' && N <= MAX_VIEW) { return {states: allStates(), note: ''}; }
      list = topByReach(null, v === 'all' ? MAX_VIEW : limit);
      noteText = v === 'all' ? 'every state is too many to draw: the ' + list.length +
        ' most visited are shown' : '';
    } else if (v === 'group') {
      for (i = 0; i < N; i++) { if (D.group[i] === state.group) { list.push(i); } }
      if (list.length > MAX_VIEW) {
        noteText = 'the group has ' + list.length.toLocaleString() + ' states here: the ' +
          MAX_VIEW.toLocaleString() + ' most visited are shown';
        list = topByReach(list, MAX_VIEW);
      }
    } else if (v === 'threshold') {
      for (i = 0; i < N; i++) { if (reach(p, i) >= state.min) { list.push(i); } }
      if (list.length > MAX_VIEW) {
        noteText = list.length.toLocaleString() + ' states pass: the ' +
          MAX_VIEW.toLocaleString() + ' most visited are shown';
        list = topByReach(list, MAX_VIEW);
      }
    } else if (v === 'around' || v === 'path') {
      var centre = state.sel >= 0 ? state.sel : START;
      if (v === 'path') {
        list = path(centre, p);
        if (!list.length) { noteText = 'the policy never reaches this state'; list = [centre]; }
        var seen = {};
        list.forEach(function (s) { seen[s] = true; });
        neighbours(centre, false).forEach(function (t) {
          if (!seen[t]) { seen[t] = true; list.push(t); }
        });
      } else {
        var depth = new Map([[centre, 0]]), queue = [centre];
        for (var q = 0; q < queue.length && queue.length < MAX_VIEW; q++) {
          var s = queue[q], d = depth.get(s);
          if (d >= state.steps) { continue; }
          var next = neighbours(s, true);
          for (var j = 0; j < next.length && queue.length < MAX_VIEW; j++) {
            if (!depth.has(next[j])) { depth.set(next[j], d + 1); queue.push(next[j]); }
          }
        }
        list = queue;
        if (list.length >= MAX_VIEW) { noteText = 'stopped at ' + MAX_VIEW.toLocaleString() + ' states'; }
      }
    }
    if (list.indexOf(START) < 0 && v !== 'group' && v !== 'around' && v !== 'path') {
      list.push(START);
    }
    return {states: list, note: noteText};
  }

  // Layers across, the global barycentre order down; empty layers and gaps closed up.
  // Moves inside a layer (Super Six's throws, a cyclic game's turns) split a column of more
  // than SPLIT_COLUMN states:
  // each state goes one step right of the state before it in the layer (breadth-first
  // from the states the layer is entered by), so a layer of many states reads as a
  // picture rather than as one tall line.
  function place(states) {
    var index = new Map(), columns = new Map();
    states.forEach(function (s, k) {
      index.set(s, k);
      var l = D.terminal[s] ? Infinity : D.layer[s];  // the ends of the game: last
      if (!columns.has(l)) { columns.set(l, []); }
      columns.get(l).push(s);
    });
    var keys = Array.from(columns.keys()).sort(function (a, b) { return a - b; });
    var x = new Float32Array(states.length), y = new Float32Array(states.length);
    var left = 0;
    keys.forEach(function (l) {
      var members = columns.get(l);
      var depth = members.length > SPLIT_COLUMN ? depthsWithin(members) : null;
      var widest = 0, rows = new Map();
      members.sort(function (a, b) { return D.order[a] - D.order[b] || a - b; });
      members.forEach(function (s) {
        var d = depth ? depth.get(s) : 0;
        widest = Math.max(widest, d);
        if (!rows.has(d)) { rows.set(d, []); }
        rows.get(d).push(s);
      });
      rows.forEach(function (row, d) {
        var half = (row.length - 1) / 2;
        row.forEach(function (s, r) {
          var k = index.get(s);
          x[k] = left + d;
          y[k] = half - r;
        });
      });
      left += widest + 1.5;
    });
    return {x: x, y: y, index: index};
  }
  function depthsWithin(members) {
    var inside = new Map(), entered = new Set(), k, o, t;
    members.forEach(function (s) { inside.set(s, []); });
    members.forEach(function (s) {
      for (k = OPTR[s]; k < OPTR[s + 1]; k++) {
        for (o = OPT[k]; o < OPT[k + 1]; o++) {
          t = D.target[o];
          if (t >= 0 && t !== s && inside.has(t)) { inside.get(s).push(t); entered.add(t); }
        }
      }
    });
    var depth = new Map(), queue = [];
    function spread(roots) {  // breadth-first from all of roots at once
      var first = queue.length;
      roots.forEach(function (s) { depth.set(s, 0); queue.push(s); });
      for (var q = first; q < queue.length; q++) {
        inside.get(queue[q]).forEach(function (t) {
          if (!depth.has(t)) { depth.set(t, depth.get(queue[q]) + 1); queue.push(t); }
        });
      }
    }
    spread(members.filter(function (s) { return !entered.has(s); }));
    members.forEach(function (s) { if (!depth.has(s)) { spread([s]); } });  // on a cycle only
    return depth;
  }

  function viewEdges(states, index, p) {
    var pairs = new Map(), list = [];
    for (var a = 0; a < states.length; a++) {
      var s = states[a];
      for (var k = OPTR[s]; k < OPTR[s + 1]; k++) {
        var c = chosen(p, k), w = D.weight[k] / META.denominator;
        for (var o = OPT[k]; o < OPT[k + 1]; o++) {
          var t = D.target[o];
          if (t < 0 || t === s || !index.has(t)) { continue; }
          var key = s * N + t, e = pairs.get(key);
          if (e === undefined) {
            if (list.length >= MAX_EDGES) { continue; }
            e = list.length;
            pairs.set(key, e);
            list.push({a: a, b: index.get(t), p: 0});
          }
          if (o - OPT[k] === c) { list[e].p += w; }
        }
      }
    }
    return list;
  }

  // -------------------------------------------------------------------------------------
  // Drawing
  // -------------------------------------------------------------------------------------
  var BINS = [[0.05, 1.0, 'rgba(0,114,178,0.45)'], [0.2, 1.6, 'rgba(0,114,178,0.6)'],
    [0.5, 2.4, 'rgba(0,114,178,0.75)'], [Infinity, 3.4, 'rgba(0,70,130,0.9)']];
  function edgeTraces(view) {
    var groups = [{name: 'never taken', width: 0.6, colour: 'rgba(160,160,160,0.22)', x: [], y: []}];
    BINS.forEach(function (b, k) {
      groups.push({name: 'taken with probability up to ' + b[0], width: b[1], colour: b[2], x: [], y: []});
    });
    view.edges.forEach(function (e) {
      var g = 0;
      if (e.p > 0) { g = 1; while (e.p > BINS[g - 1][0]) { g++; } }
      var into = groups[g];
      into.x.push(view.x[e.a], view.x[e.b], null);
      into.y.push(view.y[e.a], view.y[e.b], null);
    });
    return groups.map(function (g) {
      return {type: 'scattergl', mode: 'lines', x: g.x, y: g.y, name: g.name,
        line: {width: g.width, color: g.colour}, hoverinfo: 'skip', showlegend: false};
    });
  }
  function bestMoves(i, p) {
    var totals = new Map();
    for (var k = OPTR[i]; k < OPTR[i + 1]; k++) {
      var c = chosen(p, k);
      if (c >= 0) {
        var move = META.moveLabels[D.move[OPT[k] + c]];
        totals.set(move, (totals.get(move) || 0) + D.weight[k]);
      }
    }
    return Array.from(totals.entries()).sort(function (a, b) { return b[1] - a[1]; })
      .slice(0, 3).map(function (m) {
        return m[0] + ' (' + Math.round(100 * m[1] / META.denominator) + ' %)';
      });
  }
  function hover(i, p) {
    var lines = ['<b>' + esc(label(i)) + '</b>' + (i === START ? ' (start)' : '')];
    lines.push(esc(META.groupNames[D.group[i]]));
    lines.push('visits (' + esc(META.policies[p]) + '): ' + num(reach(p, i)));
    lines.push((WINNING ? 'value' : esc(VALUE_NAME)) + ': ' + val(D.values[i]));
    if (D.terminal[i]) { lines.push('game over'); } else {
      var moves = bestMoves(i, p);
      lines.push(moves.length ? 'moves: ' + esc(moves.join(', ')) : 'no move on any throw');
    }
    return lines.join('<br>');
  }
  function nodeTrace(view, p) {
    // The scale spans the reaches in view (down to META.reachFloor), so that the states
    // drawn differ in colour; grey below it is "never reached".
    var low = Infinity, top = 0, colour = [], symbol = [], size = [], text = [];
    view.states.forEach(function (s) {
      var r = reach(p, s);
      if (r > 0) { low = Math.min(low, Math.log10(r)); top = Math.max(top, Math.log10(r)); }
    });
    if (state.colour === 'value') { return valueTrace(view, p); }
    var floor = Math.max(Math.log10(META.reachFloor), Math.floor(isFinite(low) ? low : 0));
    if (floor >= top) { floor = top - 1; }
    var never = floor - (top - floor) / 6;
    view.states.forEach(function (s) {
      var r = reach(p, s);
      colour.push(r > 0 ? Math.max(Math.log10(r), floor) : never);
      symbol.push(s === START ? 'star' : (D.terminal[s] ? 'square' : 'circle'));
      size.push(s === START ? 16 : (view.states.length > 2000 ? 6 : 9));
      text.push(hover(s, p));
    });
    var greyTop = (floor - never) / (top - never) * 0.999;
    var scale = [[0, COLOURS.grey], [greyTop, COLOURS.grey]];
    VIRIDIS.forEach(function (c, k) {
      scale.push([greyTop + 0.001 + (1 - greyTop - 0.001) * k / (VIRIDIS.length - 1), c]);
    });
    var ticks = [never], labels = ['0'];
    for (var t = Math.ceil(floor); t <= Math.floor(top); t++) {
      ticks.push(t);
      labels.push(t === 0 ? '1' : (t === 1 ? '10' : (t === -1 ? '0.1' : '1e' + t)));
    }
    return {type: 'scattergl', mode: 'markers', x: view.x, y: view.y, name: 'states',
      hovertext: text, hoverinfo: 'text', customdata: view.states,
      marker: {color: colour, cmin: never, cmax: top, colorscale: scale, symbol: symbol,
        size: size, line: {width: 0.6, color: '#333333'},
        colorbar: {title: {text: 'visits'}, tickvals: ticks, ticktext: labels, len: 0.6, thickness: 14, x: 1.0, xpad: 4}},
      showlegend: false};
  }
  // Colour by value, on the objective's own scale (META.valueScale): [0, 1] for a win
  // probability, the values' range for a score, diverging around 0 for a margin.
  function valueTrace(view, p) {
    var scale = META.valueScale, colour = [], symbol = [], size = [], text = [];
    view.states.forEach(function (s) {
      colour.push(D.values[s]);
      symbol.push(s === START ? 'star' : (D.terminal[s] ? 'square' : 'circle'));
      size.push(s === START ? 16 : (view.states.length > 2000 ? 6 : 9));
      text.push(hover(s, p));
    });
    return {type: 'scattergl', mode: 'markers', x: view.x, y: view.y, name: 'states',
      hovertext: text, hoverinfo: 'text', customdata: view.states,
      marker: {color: colour, cmin: scale.cmin, cmax: scale.cmax, colorscale: scale.colorscale,
        symbol: symbol, size: size, line: {width: 0.6, color: '#333333'},
        colorbar: {title: {text: esc(VALUE_NAME)}, len: 0.6, thickness: 14, x: 1.0, xpad: 4}},
      showlegend: false};
  }
  // The selected state and its successors, as SVG shapes over the WebGL canvas: changing
  // them redraws only the shapes, not every state and line.
  function highlightShapes(view) {
    var i = state.sel, k = view.index.get(i), shapes = [];
    if (i < 0 || k === undefined) { return shapes; }
    var path = '';
    function ring(m, size) {
      shapes.push({type: 'circle', xref: 'x', yref: 'y', xsizemode: 'pixel', ysizemode: 'pixel',
        xanchor: view.x[m], yanchor: view.y[m], x0: -size, x1: size, y0: -size, y1: size,
        line: {color: COLOURS.red, width: 2.5}, layer: 'above'});
    }
    neighbours(i, false).forEach(function (t) {
      var m = view.index.get(t);
      if (m === undefined) { return; }
      path += 'M' + view.x[k] + ',' + view.y[k] + 'L' + view.x[m] + ',' + view.y[m];
      ring(m, 7);
    });
    if (path) { shapes.unshift({type: 'path', path: path, line: {color: COLOURS.red, width: 2.5}, layer: 'above'}); }
    ring(k, 12);
    return shapes;
  }
  var NODE_TRACE = 5;
  // The WebGL canvas at the screen's own resolution: plotly's default (2) draws four times
  // the pixels on a 1x screen, and a software renderer (no GPU) spends most of a redraw
  // there.
  var GL_RATIO = Math.min(4, Math.max(1, window.devicePixelRatio || 1));
  // What the overview's lower panel shows: the value a policy gives away, by its name.
  var GIVEN = (WINNING ? 'win chance' : VALUE_NAME) + ' given away';
  function drawView() {
    var p = state.policy;
    var traces = edgeTraces(shown).concat([nodeTrace(shown, p)]);
    var layout = {margin: {l: 10, r: 10, t: 10, b: 10}, hovermode: 'closest', dragmode: 'pan',
      plot_bgcolor: 'white', showlegend: false, uirevision: shown.key,
      shapes: highlightShapes(shown), xaxis: {visible: false}, yaxis: {visible: false}};
    return Plotly.react('gg-plot', traces, layout, {displaylogo: false, responsive: true, scrollZoom: true,
      plotGlPixelRatio: GL_RATIO});
  }
  // The overview's hover texts, by policy: made once (toLocaleString is slow, and the
  // Super Six page has 130 groups).
  var OVERVIEW_TEXT = [];
  function overviewText(p) {
    if (!OVERVIEW_TEXT[p]) {
      OVERVIEW_TEXT[p] = META.groupStates.map(function (c, g) {
        return [c.toLocaleString(), val(META.groupValue[g][0]), val(META.groupValue[g][1]),
          num(META.groupEnds[p][g]), num(META.groupGiven[p][g])];
      });
    }
    return OVERVIEW_TEXT[p];
  }
  function drawOverview() {
    var p = state.policy, names = META.groupNames.map(esc), custom = overviewText(p);
    var line = names.map(function (_, g) { return g === state.group && state.view === 'group' ? 2.5 : 0; });
    var template = '<b>%{x}</b><br>%{customdata[0]} states, values %{customdata[1]} to %{customdata[2]}' +
      '<br>expected visits %{y:.4g}<br>game ends here: %{customdata[3]}<br>' + esc(GIVEN) +
      ': %{customdata[4]}<extra></extra>';
    var traces = [
      {type: 'bar', x: names, y: META.groupReach[p], name: 'expected visits', customdata: custom,
        hovertemplate: template, marker: {color: COLOURS.blue, line: {width: line, color: '#000'}}},
      {type: 'bar', x: names, y: META.groupEnds[p], name: 'game ends here', customdata: custom,
        hovertemplate: template, marker: {color: COLOURS.orange, pattern: {shape: '/'}, line: {width: line, color: '#000'}}},
      {type: 'bar', x: names, y: META.groupGiven[p], name: esc(GIVEN),
        xaxis: 'x2', yaxis: 'y2', customdata: custom, hovertemplate: template,
        marker: {color: COLOURS.red, pattern: {shape: 'x'}, line: {width: line, color: '#000'}}}
    ];
    var layout = {barmode: 'group', margin: {l: 60, r: 10, t: 24, b: 40}, hovermode: 'closest',
      title: {text: 'groups of states under ' + esc(META.policies[p]) + ': click one to show it', font: {size: 13}, x: 0, xanchor: 'left'},
      legend: {orientation: 'h', x: 1, xanchor: 'right', y: 1.12, font: {size: 12}},
      yaxis: {domain: [0.4, 1], title: {text: 'visits', font: {size: 12}}, rangemode: 'tozero'},
      yaxis2: {domain: [0, 0.32], title: {text: 'given away', font: {size: 12}}, rangemode: 'tozero'},
      xaxis: {type: 'category', showticklabels: false, anchor: 'y'},
      xaxis2: {type: 'category', matches: 'x', anchor: 'y2', automargin: true, tickfont: {size: 11}}};
    if (!META.groupGiven[p].some(function (g) { return g > 0; })) {
      layout.annotations = [{xref: 'paper', yref: 'y2 domain', x: 0.5, y: 0.5, showarrow: false,
        text: 'nothing given away: ' + esc(META.policies[p]) + ' always makes a best move', font: {size: 12, color: '#555'}}];
    }
    return Plotly.react('gg-overview', traces, layout, {displayModeBar: false, responsive: true});
  }

  // -------------------------------------------------------------------------------------
  // A drawing of the position, from its label, where the game describes one (META.drawing)
  // -------------------------------------------------------------------------------------
  var SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attributes, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (k) { e.setAttribute(k, attributes[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function picture(width, height, title) {
    var root = svg('svg', {width: width, height: height, viewBox: '0 0 ' + width + ' ' + height,
      role: 'img', 'aria-label': title, 'class': 'gg-picture'});
    root.appendChild(svg('title', {}, title));
    return root;
  }
  function drawCells(text, spec) {
    var open = new Set(), all = text === 'START';
    text.split(' ').forEach(function (t) { if (/^\d+$/.test(t)) { open.add(parseInt(t, 10)); } });
    var root = picture(30 * spec.cells + 4, 34, 'open cells: ' + (all ? 'all' : Array.from(open).join(' ') || 'none'));
    for (var c = 1; c <= spec.cells; c++) {
      var up = !(all || open.has(c)), x = 2 + 30 * (c - 1);
      root.appendChild(svg('rect', {x: x, y: 2, width: 27, height: 30, rx: 3,
        fill: up ? '#4d4d4d' : '#ffffff', stroke: '#333'}));
      root.appendChild(svg('text', {x: x + 13.5, y: 22, 'text-anchor': 'middle', 'font-size': 15,
        fill: up ? '#ffffff' : '#1a1a1a', 'text-decoration': up ? 'line-through' : 'none'}, String(c)));
    }
    return root;
  }
  function drawLid(text, spec) {
    var found = /^(\d+)\/(\d+)\/(\d+)/.exec(text);
    if (!found) { return null; }
    var lid = +found[1], hand = +found[2], other = +found[3];
    var root = picture(34 * spec.sockets + 40, 76, lid + ' pegs on the lid, ' + hand + ' in the hand of the player to throw, ' + other + ' in the other hand');
    for (var k = 0; k < spec.sockets; k++) {
      var x = 20 + 34 * k;
      root.appendChild(svg('circle', {cx: x, cy: 18, r: 12, fill: k < lid ? '#0072B2' : '#ffffff', stroke: '#333'}));
      root.appendChild(svg('text', {x: x, y: 23, 'text-anchor': 'middle', 'font-size': 13,
        fill: k < lid ? '#ffffff' : '#1a1a1a'}, String(k + 1)));
    }
    root.appendChild(svg('circle', {cx: 20 + 34 * spec.sockets, cy: 18, r: 12, fill: '#1a1a1a'}));
    root.appendChild(svg('text', {x: 2, y: 52, 'font-size': 13}, 'in the hand to throw: ' + hand));
    root.appendChild(svg('text', {x: 2, y: 70, 'font-size': 13}, 'in the other hand: ' + other));
    return root;
  }
  function drawUr(text, spec) {
    if (text === 'WIN') { return null; }
    var sides = text.split('/');
    if (sides.length !== 2) { return null; }
    function parse(side) {
      var found = /^\s*([0-9,\s]*|-)\s*(?:\+\s*(\d+))?\s*$/.exec(side);
      if (!found) { return null; }
      var squares = found[1] === '-' ? [] : found[1].split(',').filter(function (s) { return s.trim(); }).map(Number);
      return {squares: squares, off: found[2] ? +found[2] : 0};
    }
    var mover = parse(sides[0]), other = parse(sides[1]);
    if (!mover || !other) { return null; }
    var cell = 30, tiles = new Map(), rosettes = new Set();
    function tile(xy) { return xy[0] + ',' + xy[1]; }
    spec.rosettes.forEach(function (xy) { rosettes.add(tile(xy)); });
    spec.path.forEach(function (xy) { tiles.set(tile(xy), xy); tiles.set(tile([4 - xy[0], xy[1]]), [4 - xy[0], xy[1]]); });
    var columns = 0;
    tiles.forEach(function (xy) { columns = Math.max(columns, xy[1]); });
    var root = picture(cell * columns + 4, cell * 3 + 40, 'the board: ' + text);
    tiles.forEach(function (xy, key) {
      var gx = 2 + cell * (xy[1] - 1), gy = 2 + cell * (3 - xy[0]);
      root.appendChild(svg('rect', {x: gx, y: gy, width: cell - 2, height: cell - 2, fill: '#f4f1e8', stroke: '#777'}));
      if (rosettes.has(key)) {
        root.appendChild(svg('text', {x: gx + 14, y: gy + 20, 'text-anchor': 'middle', 'font-size': 16, fill: '#999'}, '✱'));
      }
    });
    function pieces(squares, mine) {
      squares.forEach(function (square) {
        var xy = spec.path[square - 1];
        if (!xy) { return; }
        var x = mine ? xy[0] : 4 - xy[0], gx = 2 + cell * (xy[1] - 1) + 14, gy = 2 + cell * (3 - x) + 14;
        root.appendChild(mine ? svg('circle', {cx: gx, cy: gy, r: 10, fill: '#0072B2', stroke: '#000'})
          : svg('rect', {x: gx - 9, y: gy - 9, width: 18, height: 18, fill: '#E69F00', stroke: '#000'}));
      });
    }
    pieces(mover.squares, true);
    pieces(other.squares, false);
    var waiting = function (side) { return spec.pieces - side.squares.length - side.off; };
    root.appendChild(svg('text', {x: 2, y: cell * 3 + 18, 'font-size': 12},
      '● to move: ' + waiting(mover) + ' waiting, ' + mover.off + ' off'));
    root.appendChild(svg('text', {x: 2, y: cell * 3 + 34, 'font-size': 12},
      '■ the other side: ' + waiting(other) + ' waiting, ' + other.off + ' off'));
    return root;
  }
  var DRAWINGS = {cells: drawCells, lid: drawLid, ur: drawUr};
  function drawing(i) {
    var spec = META.drawing;
    if (!spec || !DRAWINGS[spec.kind]) { return null; }
    try { return DRAWINGS[spec.kind](label(i), spec); } catch (e) { note(e); return null; }
  }

  // -------------------------------------------------------------------------------------
  // Details
  // -------------------------------------------------------------------------------------
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }
  function link(i) {
    var a = el('a', label(i), 'gg-state');
    a.href = '#';
    a.addEventListener('click', function (e) { e.preventDefault(); select(i, true); });
    return a;
  }
  function details(i) {
    var box = $('gg-details'), p = state.policy;
    box.textContent = '';
    var head = el('h2', label(i) + (i === START ? ' (start)' : '') + (D.terminal[i] ? ' (game over)' : ''));
    box.appendChild(head);
    var picture = drawing(i);
    if (picture) { box.appendChild(picture); }
    body.dataset.drawing = picture ? META.drawing.kind : 'none';
    box.appendChild(el('p', META.groupNames[D.group[i]] + ' · value ' + val(D.values[i]) +
      (WINNING ? ' (the chance that the player to move wins, under optimal play)'
        : ' (the ' + VALUE_NAME + ' of the player to move, under optimal play)')));
    var table = el('table'), row = el('tr');
    ['policy', 'visits', 'moves here'].forEach(function (h) { row.appendChild(el('th', h)); });
    table.appendChild(row);
    META.policies.forEach(function (name, q) {
      var tr = el('tr');
      tr.appendChild(el('td', name));
      tr.appendChild(el('td', num(reach(q, i)), 'num'));
      tr.appendChild(el('td', bestMoves(i, q).join(', ')));
      table.appendChild(tr);
    });
    box.appendChild(table);
    var actions = el('p');
    [['around', 'show the states around it'], ['path', 'show the path to it']].forEach(function (a) {
      var b = el('button', a[1], 'gg-act');
      b.type = 'button';
      b.addEventListener('click', function () { state.sel = i; setView(a[0]); });
      actions.appendChild(b);
    });
    box.appendChild(actions);
    throwsList(box, i);
    var before = box.childNodes.length;
    pathList(box, i, p);
    pathPart = {i: i, nodes: Array.prototype.slice.call(box.childNodes, before)};
    predecessorList(box, i);
    body.dataset.detailsThrows = String(OPTR[i + 1] - OPTR[i]);
  }
  // A policy switch changes only the path in the details panel: that part is replaced, and
  // the rest (a drawing, the tables, the links) is neither rebuilt nor restyled.
  var pathPart = null;
  function detailsPolicy(i) {
    var box = $('gg-details'), old = pathPart;
    if (!old || old.i !== i || !old.nodes.every(function (n) { return n.parentNode === box; })) {
      details(i);
      return;
    }
    var part = document.createDocumentFragment();
    pathList(part, i, state.policy);
    var nodes = Array.prototype.slice.call(part.childNodes);
    box.insertBefore(part, old.nodes[0]);
    old.nodes.forEach(function (n) { box.removeChild(n); });
    pathPart = {i: i, nodes: nodes};
  }
  function throwsList(box, i) {
    var throws = OPTR[i + 1] - OPTR[i];
    box.appendChild(el('h3', throws ? 'Throws (' + throws + ')' : 'No throws: the game is over'));
    for (var k = OPTR[i]; k < OPTR[i + 1]; k++) {
      var name = META.throwLabels ? 'throw ' + META.throwLabels[k - OPTR[i]] : 'throw ' + (k - OPTR[i] + 1);
      box.appendChild(el('p', name + ': chance ' + fraction(D.weight[k], META.denominator) +
        ' (' + pct(D.weight[k] / META.denominator) + ')'));
      var list = el('table');
      var best = -Infinity, o;
      for (o = OPT[k]; o < OPT[k + 1]; o++) { best = Math.max(best, optionValue(o)); }
      if (OPT[k] === OPT[k + 1]) {
        list.appendChild(el('tr')).appendChild(el('td', WINNING ? 'no move: the turn passes' : 'no move'));
      }
      for (o = OPT[k]; o < OPT[k + 1]; o++) {
        var tr = el('tr'), v = optionValue(o), t = D.target[o];
        tr.appendChild(el('td', META.moveLabels[D.move[o]], v === best ? 'best' : ''));
        var to = el('td');
        to.appendChild(document.createTextNode('→ '));
        to.appendChild(t >= 0 ? link(t) : el('span', '(a state not on this page)'));
        tr.appendChild(to);
        tr.appendChild(el('td', val(v), 'num'));
        var picks = META.policies.filter(function (_, q) { return chosen(q, k) === o - OPT[k]; });
        tr.appendChild(el('td', picks.join(', '), 'pick'));
        list.appendChild(tr);
      }
      box.appendChild(list);
    }
  }
  function pathList(box, i, p) {
    var steps = path(i, p);
    box.appendChild(el('h3', 'Most likely path from the start (' + META.policies[p] + ')'));
    if (!steps.length) { box.appendChild(el('p', 'The policy never gets here.')); return; }
    var chance = 1;
    for (var k = 1; k < steps.length; k++) { chance *= moveChance(steps[k - 1], steps[k], p); }
    box.appendChild(el('p', (steps.length - 1) + ' moves, chance ' + num(chance)));
    var ol = el('ol'), shownSteps = steps.length > 40 ? steps.slice(0, 20).concat([-1], steps.slice(-19)) : steps;
    shownSteps.forEach(function (s) {
      var li = el('li');
      if (s < 0) { li.textContent = '…'; } else { li.appendChild(link(s)); }
      ol.appendChild(li);
    });
    box.appendChild(ol);
  }
  function predecessorList(box, i) {
    var pred = predecessors(), from = [], seen = new Set();
    for (var k = pred.ptr[i]; k < pred.ptr[i + 1]; k++) {
      if (!seen.has(pred.from[k])) { seen.add(pred.from[k]); from.push(pred.from[k]); }
    }
    box.appendChild(el('h3', 'Predecessors (' + from.length.toLocaleString() + ')'));
    var ul = el('ul');
    from.slice(0, 30).forEach(function (s) { var li = el('li'); li.appendChild(link(s)); ul.appendChild(li); });
    if (from.length > 30) { ul.appendChild(el('li', '… and ' + (from.length - 30) + ' more')); }
    box.appendChild(ul);
  }

  // -------------------------------------------------------------------------------------
  // Actions and the address
  // -------------------------------------------------------------------------------------
  function timed(work) {
    var started = performance.now();
    return Promise.resolve(work()).then(function () {
      body.dataset.actionMs = String(Math.round(performance.now() - started));
    }).catch(note);
  }
  function update() {
    var chosenStates = chooseStates();
    var placed = place(chosenStates.states);
    shown = {states: chosenStates.states, x: placed.x, y: placed.y, index: placed.index,
      key: state.view + '|' + state.group + '|' + state.sel + '|' + state.steps + '|' + state.count + '|' + state.min};
    shown.edges = viewEdges(shown.states, shown.index, state.policy);
    var status = shown.states.length.toLocaleString() + ' of ' + N.toLocaleString() + ' states, ' +
      shown.edges.length.toLocaleString() + ' moves drawn';
    if (chosenStates.note) { status += ' (' + chosenStates.note + ')'; }
    if (shown.edges.length >= MAX_EDGES) { status += ' (moves drawn stop at ' + MAX_EDGES.toLocaleString() + ')'; }
    $('gg-status').textContent = status + '. Drag to pan, scroll to zoom, click a state for its details.';
    body.dataset.viewStates = String(shown.states.length);
    body.dataset.viewEdges = String(shown.edges.length);
    writeHash();
    return Promise.all([drawView(), drawOverview()]).then(function () {
      body.dataset.policy = META.policies[state.policy];
    });
  }
  function setView(view) {
    state.view = view;
    $('gg-view').value = view;
    showParams();
    return timed(update);
  }
  function select(i, move) {
    state.sel = i;
    details(i);
    if (move && (!shown || !shown.index.has(i))) { return setView('around'); }
    writeHash();
    return timed(function () { return Plotly.relayout('gg-plot', {shapes: highlightShapes(shown)}); });
  }
  function showParams() {
    document.querySelectorAll('.gg-param').forEach(function (e) {
      e.hidden = e.dataset.for.split(' ').indexOf(state.view) < 0;
    });
  }
  function writeHash() {
    var params = new URLSearchParams();
    params.set('policy', META.policies[state.policy]);
    params.set('view', state.view);
    if (state.view === 'likely') { params.set('count', state.count); }
    if (state.view === 'group') { params.set('group', META.groupNames[state.group]); }
    if (state.view === 'around') { params.set('steps', state.steps); }
    if (state.view === 'threshold') { params.set('min', state.min); }
    if (state.sel >= 0) { params.set('state', label(state.sel)); }
    if (state.colour === 'value') { params.set('colour', 'value'); }
    if (window.location.hash === '#selftest') { return; }
    try {
      history.replaceState(null, '', '#' + params.toString());
    } catch (e) {
      // A page with no address of its own (Jupyter's srcdoc iframe) cannot keep the view.
    }
  }
  function findLabel(text) {
    var at = -1;
    for (var i = 0; i < N; i++) { if (OFF[i + 1] - OFF[i] === text.length && label(i) === text) { at = i; break; } }
    return at;
  }
  function readHash() {
    var params = new URLSearchParams(window.location.hash.slice(1));
    var policy = META.policies.indexOf(params.get('policy'));
    if (policy >= 0) { state.policy = policy; }
    var views = ['likely', 'group', 'around', 'path', 'threshold', 'all'];
    if (views.indexOf(params.get('view')) >= 0) { state.view = params.get('view'); }
    var count = parseInt(params.get('count'), 10);
    if (count >= 1 && count <= MAX_VIEW) { state.count = count; }
    var group = META.groupNames.indexOf(params.get('group'));
    if (group >= 0) { state.group = group; }
    var steps = parseInt(params.get('steps'), 10);
    if (steps >= 1 && steps <= 20) { state.steps = steps; }
    var min = parseFloat(params.get('min'));
    if (min >= 0 && min <= 1) { state.min = min; }
    if (params.get('state') !== null) { state.sel = findLabel(params.get('state')); }
    if (params.get('colour') === 'value') { state.colour = 'value'; }
  }
  function search(query) {
    var results = $('gg-results');
    results.textContent = '';
    query = query.trim().toLowerCase();
    if (!query) { return 0; }
    if (LOWER === null) { LOWER = TEXT.toLowerCase(); }
    var hits = [], from = 0, seen = new Set();
    while (hits.length < 20) {
      var at = LOWER.indexOf(query, from);
      if (at < 0) { break; }
      var lo = 0, hi = N;  // the label holding position at: OFF[lo] <= at < OFF[lo + 1]
      while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (OFF[mid] <= at) { lo = mid; } else { hi = mid; } }
      if (!seen.has(lo) && at + query.length <= OFF[lo + 1]) { seen.add(lo); hits.push(lo); }
      from = Math.max(at + 1, seen.has(lo) ? OFF[lo + 1] : at + 1);
    }
    hits.sort(function (a, b) { return (OFF[a + 1] - OFF[a]) - (OFF[b + 1] - OFF[b]); });
    hits.forEach(function (i) {
      var li = el('li');
      var a = link(i);
      a.addEventListener('click', function () { results.textContent = ''; });
      li.appendChild(a);
      results.appendChild(li);
    });
    if (!hits.length) { results.appendChild(el('li', 'no label contains “' + query + '”')); }
    return hits.length;
  }

  function wire() {
    var policy = $('gg-policy');
    META.policies.forEach(function (name, p) {
      var option = el('option', name + ': ' + startValue(META.wins[p]));
      option.value = String(p);
      policy.appendChild(option);
    });
    var group = $('gg-group');
    META.groupNames.forEach(function (name, g) {
      var option = el('option', name + ' (' + META.groupStates[g].toLocaleString() + ')');
      option.value = String(g);
      group.appendChild(option);
    });
    policy.value = String(state.policy);
    group.value = String(state.group);
    $('gg-view').value = state.view;
    $('gg-count').value = state.count;
    $('gg-steps').value = state.steps;
    $('gg-min').value = state.min;
    $('gg-colour').value = state.colour;
    $('gg-colour-value').textContent = VALUE_NAME;
    showParams();
    policy.addEventListener('change', function () {
      state.policy = parseInt(policy.value, 10);
      timed(function () { if (state.sel >= 0) { detailsPolicy(state.sel); } return update(); });
    });
    $('gg-view').addEventListener('change', function () { setView($('gg-view').value); });
    $('gg-colour').addEventListener('change', function () {
      state.colour = $('gg-colour').value === 'value' ? 'value' : 'reach';
      timed(update);
    });
    group.addEventListener('change', function () { state.group = parseInt(group.value, 10); setView('group'); });
    [['gg-count', 'count', parseInt], ['gg-steps', 'steps', parseInt], ['gg-min', 'min', parseFloat]].forEach(function (c) {
      $(c[0]).addEventListener('change', function () {
        var value = c[2]($(c[0]).value, 10);
        if (isFinite(value) && value >= 0) { state[c[1]] = value; timed(update); }
      });
    });
    $('gg-search-form').addEventListener('submit', function (e) { e.preventDefault(); search($('gg-search').value); });
    $('gg-search').addEventListener('input', function () { search($('gg-search').value); });
  }
  function bindPlots() {
    var group = $('gg-group');
    $('gg-plot').on('plotly_click', function (event) {
      var point = event.points[0];
      if (point.curveNumber === NODE_TRACE) { select(shown.states[point.pointNumber], false); }
    });
    $('gg-overview').on('plotly_click', function (event) {
      state.group = event.points[0].pointIndex;
      group.value = String(state.group);
      setView('group');
    });
  }

  function pixelOf(i) {
    var gd = $('gg-plot'), k = shown.index.get(i), full = gd._fullLayout, box = gd.getBoundingClientRect();
    if (k === undefined) { return null; }
    return {x: box.left + full._size.l + full.xaxis.l2p(shown.x[k]),
      y: box.top + full._size.t + full.yaxis.l2p(shown.y[k])};
  }

  function selftest() {
    var where = pixelOf(START), drag = document.querySelector('#gg-plot .nsewdrag');
    drag.dispatchEvent(new MouseEvent('mousemove', {clientX: where.x, clientY: where.y, bubbles: true}));
    return new Promise(function (done) { setTimeout(done, 100); }).then(function () {
      var tip = document.querySelector('#gg-plot .hoverlayer .hovertext');
      body.dataset.hoverText = tip ? tip.textContent : '';
      return select(START, false);
    }).then(function () {
      body.dataset.clicked = label(START);
      $('gg-policy').value = String(P - 1);
      $('gg-policy').dispatchEvent(new Event('change'));
      return new Promise(function (done) { setTimeout(done, 50); });
    }).then(function () {
      body.dataset.policy = META.policies[state.policy];
      body.dataset.searchHits = String(search(label(START)));
      return setView('around');
    }).then(function () {
      body.dataset.aroundStates = String(shown.states.length);
      body.dataset.selftest = 'done';
    });
  }

  function title() {
    $('gg-title').textContent = META.title;
    var summary = META.totalStates.toLocaleString() + ' states in ' + META.groupNames.length + ' groups';
    if (N < META.totalStates) {
      summary += '; this page holds ' + N.toLocaleString() + ' of them in detail (those the policies reach most' +
        (META.minReach > 0 ? ', reach ≥ ' + META.minReach : '') + '). The overview counts every state; ' +
        'for the others, explore a smaller part (--min-reach) or use Python (gamegraph.analysis.explore_graph)';
    }
    $('gg-summary').textContent = summary + '.';
  }

  var started = performance.now();
  gunzip(decode64(document.getElementById('gg-data').textContent)).then(function (buffer) {
    unpack(buffer);
    title();
    var opening = META.policies.indexOf(META.openPolicy);  // explore_figure(..., policy=)
    if (opening >= 0) { state.policy = opening; }
    if (window.location.hash !== '#selftest') { readHash(); }
    if (N <= 400 && !/view=/.test(window.location.hash)) { state.view = 'all'; }
    wire();
    return update();
  }).then(function () {
    bindPlots();
    if (state.sel >= 0) { details(state.sel); return select(state.sel, false); }
    return null;
  }).then(function () {
    body.dataset.loadMs = String(Math.round(performance.now() - started));
    body.dataset.rendered = 'yes';
    setTimeout(predecessors, 0);  // the reverse index, once, before the first click needs it
    window.ggExplorer = {pixelOf: pixelOf, select: select, setView: setView, search: search,
      state: state, label: label, start: START};
    if (window.location.hash === '#selftest') { return selftest(); }
    return null;
  }).catch(note);
}());
