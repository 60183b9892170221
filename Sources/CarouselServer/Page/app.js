// The page of `carousel serve`: the stores of a list on a Web-Mercator map,
// the camera the server sends, and a carousel of cards the user drags. The
// carousel only reports its offsets (as scrollViewDidScroll would); which
// store the map shows, and when, is decided by the server's view model
// (debounced 250 ms after the last frame, distinct) over the session.
// A search (the box, or "search this area" for what the phone's map
// shows) asks the session for a query: the cards and the markers become
// its results until "whole list".
// The map is drawn from vector tiles the server serves: the basemap
// (Natural Earth's countries and capitals, /basemap/{z}/{x}/{y}.mvt) and
// the list's clustered markers (/lists/{name}/tiles/{z}/{x}/{y}.mvt),
// decoded here (mvt below); every request goes to the page's own server.
// The carousel follows the W3C ARIA Authoring Practices Guide's carousel
// pattern and its auto-rotating example (roles, rotation control, arrow
// keys, autoplay that pauses for hover and focus), honours
// `prefers-reduced-motion`, and lays out right-to-left with `?dir=rtl`.
"use strict";

const params = new URLSearchParams(location.search);
// `?dir=rtl`: the document reads right to left (as an Arabic or Hebrew
// app would), the strip with it: card 0 at the right edge.
const RTL = params.get("dir") === "rtl";
if (RTL) document.documentElement.dir = "rtl";
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

const W = 390, ITEM = 300, SPACING = 12, PAGE = ITEM + SPACING;   // groupPagingCentered: one card, neighbours peek
const LEAD = (W - ITEM) / 2;                                         // centre alignment's leading inset
const MAP_W = 390, MAP_H = 844, INSETS = { top: 0, left: 0, bottom: 170, right: 0 };  // the phone's map under the cards
const ZOOM = 13, TILE = 256, MAX_MARKERS = 5000;
const BASEMAP_MAX_ZOOM = 4;                                          // the server's basemap has zooms 0–4; deeper, its zoom-4 tile scaled up
const SEA = "#dbe7f0", LAND = "#f1efe4", BORDER = "#a39e93";
const DECELERATION = 0.99;                                           // UIKit's .fast, per ms

const state = {
  list: null, count: 0, stores: [], listStores: [], results: false, markers: null, offset: 0, selected: null, camera: null,
  messages: 0, socket: null, animation: null, basemap: [], inset: [],
  index: 0, scrollLeft: 0, rtl: RTL,   // the current card (logical), the web's scrollLeft for the offset
};
window.carouselState = state;

const canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
// A map is not mirrored in right-to-left: its labels are placed for
// left-to-right text (a canvas's direction would otherwise inherit dir=rtl
// and flip every textAlign "start").
ctx.direction = "ltr";
const track = document.getElementById("track"), carousel = document.getElementById("carousel");
const logView = document.getElementById("log"), statusView = document.getElementById("status");

// Web Mercator at zoom 0 in points (tile size T): x = (lng/360 + 0.5)·T,
// y = (0.5 − ln((1 + sin φ)/(1 − sin φ))/(4π))·T, φ clamped to ±85.0511°.
function project(lat, lng) {
  const phi = Math.max(-85.0511287798066, Math.min(85.0511287798066, lat)) * Math.PI / 180;
  const s = Math.sin(phi);
  return { x: (lng / 360 + 0.5) * TILE, y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * TILE };
}

// Its inverse, for the box the canvas shows: λ = (x/T − 0.5)·360,
// φ = atan(sinh(π·(1 − 2y/T))).
function unproject(x, y) {
  return { lat: Math.atan(Math.sinh(Math.PI * (1 - 2 * y / TILE))) * 180 / Math.PI, lng: (x / TILE - 0.5) * 360 };
}

let view = { minX: 0, minY: 0, scale: 1 };
function fitView() {
  if (!state.stores.length) return;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const s of state.stores) { minX = Math.min(minX, s.p.x); maxX = Math.max(maxX, s.p.x); minY = Math.min(minY, s.p.y); maxY = Math.max(maxY, s.p.y); }
  const pad = 30, w = Math.max(maxX - minX, 1e-6), h = Math.max(maxY - minY, 1e-6);
  const scale = Math.min((canvas.width - 2 * pad) / w, (canvas.height - 2 * pad) / h);
  view = { scale, minX: minX - (canvas.width / scale - w) / 2, minY: minY - (canvas.height / scale - h) / 2 };
}
const toScreen = (p) => ({ x: (p.x - view.minX) * view.scale, y: (p.y - view.minY) * view.scale });

// The overview's zoom: a canvas pixel per 2^−z zoom-0 points, as a map at
// zoom z draws them (256-point tiles), so the server's clusters are the
// ones a map at this scale would show.
const overviewZoom = () => Math.max(0, Math.min(24, Math.log2(view.scale)));

// A Mapbox Vector Tile (specification 2.1) read from its protobuf bytes,
// written from the specification and the protobuf wire format: the
// page has no build step and no package registry, and a tile needs only
// varints, lengths and a few fixed-size numbers. Returns its layers by
// name: { extent, features: [{ id, type, properties, geometry }] }, a
// geometry as rings (polygons, lines) or one-point parts (points) in
// tile units, (0, 0) the tile's top-left corner.
const mvt = (() => {
  const utf8 = new TextDecoder();
  class Reader {
    constructor(bytes, start = 0, end = bytes.length) { this.bytes = bytes; this.pos = start; this.end = end; }
    more() { return this.pos < this.end; }
    // Arithmetic, not bitwise: ids and 64-bit values go past 2^32 (exact to 2^53).
    varint() {
      let value = 0, scale = 1, byte;
      do { byte = this.bytes[this.pos++]; value += (byte & 0x7f) * scale; scale *= 128; } while (byte >= 0x80 && this.pos < this.end);
      return value;
    }
    key() { const key = this.varint(); return [Math.floor(key / 8), key % 8]; }
    sub() { const length = this.varint(), reader = new Reader(this.bytes, this.pos, this.pos + length); this.pos += length; return reader; }
    string() { const r = this.sub(); return utf8.decode(this.bytes.subarray(r.pos, r.end)); }
    fixed(size) { const at = this.pos; this.pos += size; return new DataView(this.bytes.buffer, this.bytes.byteOffset + at, size); }
    // A repeated varint field, packed (wire type 2) or not.
    varints(type, into) { if (type === 2) { const r = this.sub(); while (r.more()) into.push(r.varint()); } else into.push(this.varint()); }
    skip(type) {
      if (type === 0) this.varint(); else if (type === 1) this.pos += 8; else if (type === 2) this.sub(); else if (type === 5) this.pos += 4;
      else throw new Error("vector tile: unknown wire type " + type);
    }
  }
  const zigzag = (n) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

  function value(r) {   // Value: string 1, float 2, double 3, int64 4, uint64 5, sint64 6, bool 7
    let v = null;
    while (r.more()) {
      const [field, type] = r.key();
      if (field === 1) v = r.string();
      else if (field === 2) v = r.fixed(4).getFloat32(0, true);
      else if (field === 3) v = r.fixed(8).getFloat64(0, true);
      else if (field === 4) { v = r.varint(); if (v >= 2 ** 63) v -= 2 ** 64; }   // two's complement
      else if (field === 5) v = r.varint();
      else if (field === 6) v = zigzag(r.varint());
      else if (field === 7) v = r.varint() !== 0;
      else r.skip(type);
    }
    return v;
  }

  // §4.3: commands MoveTo (1), LineTo (2), ClosePath (7), each with a
  // count; parameters are zigzag deltas from the cursor.
  function geometry(commands) {
    const parts = [];
    let x = 0, y = 0, part = null;
    for (let i = 0; i < commands.length;) {
      const command = commands[i] & 7, count = Math.floor(commands[i++] / 8);
      if (command === 7) { if (part) part.closed = true; continue; }
      for (let k = 0; k < count; k++) {
        x += zigzag(commands[i++]); y += zigzag(commands[i++]);
        if (command === 1) { part = [[x, y]]; parts.push(part); } else if (part) part.push([x, y]);
      }
    }
    return parts;
  }

  function feature(r) {
    const tags = [], commands = [], f = { id: null, type: 0, properties: {}, geometry: [] };
    while (r.more()) {
      const [field, type] = r.key();
      if (field === 1) f.id = r.varint();
      else if (field === 2) r.varints(type, tags);
      else if (field === 3) f.type = r.varint();
      else if (field === 4) r.varints(type, commands);
      else r.skip(type);
    }
    f.tags = tags; f.commands = commands;
    return f;
  }

  function layer(r) {
    const l = { name: "", extent: 4096, features: [] }, keys = [], values = [];
    while (r.more()) {
      const [field, type] = r.key();
      if (field === 1) l.name = r.string();
      else if (field === 2) l.features.push(feature(r.sub()));
      else if (field === 3) keys.push(r.string());
      else if (field === 4) values.push(value(r.sub()));
      else if (field === 5) l.extent = r.varint();
      else r.skip(type);
    }
    // Keys and values come after the features in the message: resolve
    // the tags once all are read.
    for (const f of l.features) {
      for (let i = 0; i + 1 < f.tags.length; i += 2) f.properties[keys[f.tags[i]]] = values[f.tags[i + 1]];
      f.geometry = geometry(f.commands);
      delete f.tags; delete f.commands;
    }
    return l;
  }

  return function decode(bytes) {
    const layers = {}, r = new Reader(bytes);
    while (r.more()) {
      const [field, type] = r.key();
      if (field === 3) { const l = layer(r.sub()); layers[l.name] = l; } else r.skip(type);
    }
    return layers;
  };
})();

// A tile's layers, {} for a 204 (a tile with nothing in it).
async function getTile(url) {
  const response = await fetch(url);
  if (response.status === 204) return {};
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return mvt(new Uint8Array(await response.arrayBuffer()));
}

// The tiles at zoom z that a view's box touches (the canvas's, or the
// inset's), clamped to the grid.
function tilesOfView(z, v = { ...view, width: canvas.width, height: canvas.height }) {
  const n = 2 ** z, k = n / TILE, clamp = (c) => Math.max(0, Math.min(n - 1, c));
  const x0 = clamp(Math.floor(v.minX * k)), x1 = clamp(Math.floor((v.minX + v.width / v.scale) * k));
  const y0 = clamp(Math.floor(v.minY * k)), y1 = clamp(Math.floor((v.minY + v.height / v.scale) * k));
  const tiles = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) tiles.push({ z, x, y });
  return tiles;
}

// A point of tile t (in its layer's units) in zoom-0 points.
const tilePoint = (t, extent, [x, y]) => ({ x: (t.x + x / extent) * TILE / 2 ** t.z, y: (t.y + y / extent) * TILE / 2 ** t.z });

// The markers of the canvas's box, from the list's tiles at the overview's
// whole zoom (supercluster's clusters change at whole zooms: the same
// clusters the clusters endpoint gave at this fractional zoom): clusters,
// and stores on their own — the selected one always, never inside a
// cluster (`?selected=`). A tile carries the features of its buffer too,
// so a marker near an edge comes in two tiles: it belongs to the tile
// whose interior (0 ≤ x, y < extent) holds it, and it is counted once by
// its feature id (a store's list position, a cluster's id). Fetched again
// when the selection moves; an answer that comes after a newer request's
// is dropped.
let markersRequest = 0;
async function fetchMarkers() {
  const request = ++markersRequest;
  // Results are few and drawn as they are; the clusters are the list's.
  if (state.results) { state.markers = null; drawMap(); return; }
  const z = Math.max(0, Math.min(22, Math.floor(overviewZoom())));
  const selected = state.selected, query = selected != null ? `?selected=${selected}` : "";
  const tiles = await Promise.all(tilesOfView(z).map(async (t) =>
    ({ t, layers: await getTile(`/lists/${encodeURIComponent(state.list)}/tiles/${t.z}/${t.x}/${t.y}.mvt${query}`) })));
  if (request !== markersRequest) return;
  const found = new Map();
  for (const { t, layers } of tiles) {
    const layer = layers.stores;
    if (!layer) continue;
    for (const f of layer.features) {
      const [x, y] = f.geometry[0][0], inside = x >= 0 && x < layer.extent && y >= 0 && y < layer.extent;
      const key = (f.properties.cluster ? "cluster " : "store ") + f.id, seen = found.get(key);
      // The copy inside its own tile wins; one from a buffer only stands
      // in for it if no tile's interior has it (a rounding at an edge).
      if (seen && (seen.inside || !inside)) continue;
      const point = tilePoint(t, layer.extent, [x, y]), { lat, lng } = unproject(point.x, point.y), p = f.properties;
      const marker = p.cluster
        ? { type: "cluster", id: p.cluster_id, count: p.point_count, expansionZoom: p.expansion_zoom, latitude: lat, longitude: lng }
        : { type: "store", index: f.id, id: p.id, name: p.name, category: p.category ?? null, latitude: lat, longitude: lng };
      found.set(key, { marker, inside });
    }
  }
  state.markers = Array.from(found.values(), (v) => v.marker);
  state.markersSelected = selected;   // which selection these markers were asked for (the browser check waits on it)
  document.body.dataset.markers = state.markers.length;
  drawMap();
}

// The locator in the canvas's top-left corner: the basemap 2^7 times
// farther out around the canvas's centre, so that a city-sized list still
// shows where it is (coasts, borders, the country's name); at the
// overview's own zoom, 1:110m data is one land colour.
const INSET = { x: 8, y: 8, width: 216, height: 150, zoomOut: 7 };
function insetView() {
  const scale = view.scale / 2 ** INSET.zoomOut;
  const cx = view.minX + canvas.width / view.scale / 2, cy = view.minY + canvas.height / view.scale / 2;
  return { scale, minX: cx - INSET.width / 2 / scale, minY: cy - INSET.height / 2 / scale, width: INSET.width, height: INSET.height };
}

// The basemap's tiles for the canvas's box and the inset's, each at its
// zoom up to the basemap's deepest (a zoom-4 tile drawn scaled up past
// it). The basemap never changes while the server runs: each tile is
// fetched once.
const basemapTiles = new Map();
const basemapZoom = (scale) => Math.max(0, Math.min(BASEMAP_MAX_ZOOM, Math.floor(Math.log2(scale))));
async function fetchBasemap() {
  const main = tilesOfView(basemapZoom(view.scale)), inset = insetView(), around = tilesOfView(basemapZoom(inset.scale), inset);
  const load = (t) => {
    const key = `${t.z}/${t.x}/${t.y}`;
    if (!basemapTiles.has(key)) basemapTiles.set(key, getTile(`/basemap/${key}.mvt`).then((layers) => ({ t, layers })));
    return basemapTiles.get(key);
  };
  [state.basemap, state.inset] = await Promise.all([Promise.all(main.map(load)), Promise.all(around.map(load))]);
  document.body.dataset.basemap = state.basemap.length;
  drawMap();
}

// Land as the countries' polygons, their outlines the coastlines and
// borders, each tile clipped to its square (its buffer's edges would
// otherwise show as lines); then the labels of the places layer, each
// drawn by the tile whose interior holds it. `v` maps zoom-0 points to
// the canvas (the overview's view, or the inset's), `box` is where.
function drawBasemap(tiles, v, box, small) {
  ctx.save();
  ctx.beginPath(); ctx.rect(box.x, box.y, box.width, box.height); ctx.clip();
  ctx.fillStyle = SEA; ctx.fillRect(box.x, box.y, box.width, box.height);
  const frame = (t, extent) => {
    const size = TILE / 2 ** t.z * v.scale;
    return { x: box.x + (t.x * TILE / 2 ** t.z - v.minX) * v.scale, y: box.y + (t.y * TILE / 2 ** t.z - v.minY) * v.scale, size, unit: size / extent };
  };
  for (const { t, layers } of tiles) {
    const countries = layers.countries;
    if (!countries) continue;
    const f = frame(t, countries.extent), land = new Path2D();
    for (const feature of countries.features) {
      for (const ring of feature.geometry) {
        ring.forEach(([x, y], i) => (i ? land.lineTo : land.moveTo).call(land, f.x + x * f.unit, f.y + y * f.unit));
        land.closePath();
      }
    }
    ctx.save();
    ctx.beginPath(); ctx.rect(f.x, f.y, f.size, f.size); ctx.clip();
    ctx.fillStyle = LAND; ctx.fill(land);
    ctx.strokeStyle = BORDER; ctx.lineWidth = 1; ctx.stroke(land);
    ctx.restore();
  }
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (const { t, layers } of tiles) {
    const places = layers.places;
    if (!places) continue;
    const f = frame(t, places.extent);
    for (const place of places.features) {
      const [x, y] = place.geometry[0][0];
      if (x < 0 || x >= places.extent || y < 0 || y >= places.extent) continue;
      const q = { x: f.x + x * f.unit, y: f.y + y * f.unit };
      if (place.properties.kind === "country") {
        ctx.font = `600 ${small ? 10 : 13}px system-ui`; ctx.fillStyle = "#8a8275";
        ctx.fillText(String(place.properties.name).toUpperCase(), q.x, q.y);
      } else {
        ctx.fillStyle = "#6b6459"; ctx.beginPath(); ctx.arc(q.x, q.y, small ? 2 : 3, 0, 2 * Math.PI); ctx.fill();
        ctx.font = `${small ? 10 : 12}px system-ui`; ctx.fillText(place.properties.name, q.x, q.y - (small ? 8 : 11));
      }
    }
  }
  ctx.textAlign = "start"; ctx.textBaseline = "alphabetic";
  ctx.restore();
}

// The inset: the basemap around, the canvas's box on it, a frame.
function drawInset() {
  if (!state.inset.length) return;
  const v = insetView();
  drawBasemap(state.inset, v, INSET, true);
  const w = canvas.width / view.scale * v.scale, h = canvas.height / view.scale * v.scale;
  ctx.strokeStyle = "#e63946"; ctx.lineWidth = 1.5;
  ctx.strokeRect(INSET.x + (INSET.width - w) / 2, INSET.y + (INSET.height - h) / 2, w, h);
  ctx.strokeStyle = "#1d3557"; ctx.lineWidth = 1; ctx.strokeRect(INSET.x + 0.5, INSET.y + 0.5, INSET.width - 1, INSET.height - 1);
}

function drawMarkers() {
  if (!state.markers) {
    ctx.fillStyle = "#457b9d";
    for (const s of state.stores) { const q = toScreen(s.p); ctx.fillRect(q.x - 2, q.y - 2, 4, 4); }
    return;
  }
  ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.font = "bold 11px system-ui";
  for (const m of state.markers) {
    const q = toScreen(project(m.latitude, m.longitude));
    if (m.type === "cluster") {
      // Area grows with the count, as map styles draw cluster circles;
      // opaque, so that the basemap under it does not tint it.
      const r = 9 + 3 * Math.log2(m.count);
      ctx.fillStyle = "rgb(69,123,157)"; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(q.x, q.y, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      ctx.fillStyle = "#fff"; ctx.fillText(String(m.count), q.x, q.y);
    } else {
      ctx.fillStyle = "#457b9d"; ctx.strokeStyle = "#fff"; ctx.lineWidth = 1;
      ctx.fillRect(q.x - 3, q.y - 3, 6, 6); ctx.strokeRect(q.x - 3.5, q.y - 3.5, 7, 7);
    }
  }
  ctx.textAlign = "start"; ctx.textBaseline = "alphabetic";
}

function drawMap() {
  drawBasemap(state.basemap, view, { x: 0, y: 0, width: canvas.width, height: canvas.height }, false);
  drawMarkers();
  drawInset();
  if (state.camera) {
    // The camera's view: MAP_W × MAP_H points at its zoom, around its centre.
    const c = toScreen(project(state.camera.latitude, state.camera.longitude));
    const k = view.scale / Math.pow(2, state.camera.zoom);
    const w = MAP_W * k, h = MAP_H * k;
    const x0 = c.x - w / 2, y0 = c.y - h / 2;
    ctx.strokeStyle = "#1d3557"; ctx.lineWidth = 2; ctx.setLineDash([]);
    ctx.strokeRect(x0, y0, w, h);
    ctx.fillStyle = "rgba(29,53,87,.08)";
    ctx.fillRect(x0 + INSETS.left * k, y0 + INSETS.top * k, w - (INSETS.left + INSETS.right) * k, h - (INSETS.top + INSETS.bottom) * k);
    ctx.setLineDash([4, 3]); ctx.strokeStyle = "#1d3557"; ctx.lineWidth = 1;
    ctx.strokeRect(x0 + INSETS.left * k, y0 + INSETS.top * k, w - (INSETS.left + INSETS.right) * k, h - (INSETS.top + INSETS.bottom) * k);
    ctx.setLineDash([]);
    ctx.beginPath(); ctx.moveTo(c.x - 6, c.y); ctx.lineTo(c.x + 6, c.y); ctx.moveTo(c.x, c.y - 6); ctx.lineTo(c.x, c.y + 6); ctx.stroke();
  }
  if (state.selected != null && state.stores[state.selected]) {
    const q = toScreen(state.stores[state.selected].p);
    ctx.fillStyle = "#e63946"; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.arc(q.x, q.y, 7, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    ctx.fillStyle = "#1d232a"; ctx.font = "bold 13px system-ui";
    ctx.fillText(state.stores[state.selected].name, q.x + 10, q.y - 8);
  }
}

// Offsets. `state.offset` is the LOGICAL offset: the distance scrolled
// from the start edge, 0 with card 0 at rest and i·PAGE with card i, in
// both directions, so "next" is always index + 1.
// In right-to-left (`?dir=rtl`) card 0 sits at the right edge and later
// cards run leftwards. A native `dir="rtl"` scroller would report
// `scrollLeft` = −logical: CSSOM View puts 0 at the start (right) edge
// and goes NEGATIVE toward the end, as Chromium does since 85 (and
// Firefox, Safari). `state.scrollLeft` keeps that web value. The session
// speaks the engine's convention (CarouselEngine's LayoutDirection: a
// flipped UIKit flow layout's contentOffset.x, card 0 at maxOffset), so a
// frame goes out as maxOffset + scrollLeft = maxOffset − logical, the
// engine's `engineOffset(fromPlatform: .web)`; a scroll command comes back
// in the same convention. In left-to-right all three are the same number.
const maxOffset = () => Math.max(0, state.count - 1) * PAGE;
const webScrollLeft = (logical) => (RTL ? -logical : logical);
const engineOffset = (logical) => (RTL ? maxOffset() + webScrollLeft(logical) : logical);
const logicalOffset = (engine) => (RTL ? maxOffset() - engine : engine);
const clampIndex = (i) => Math.max(0, Math.min(state.count - 1, i));

// Cards: item i rests at logical offset i·PAGE, its start edge at
// LEAD + i·PAGE − offset from the viewport's start edge (the left one, or
// the right one in right-to-left, where the card is drawn mirrored); the
// scale is 0.7 + 0.3·(visible fraction), as the engine's visibility.
// Only the cards in view (and one either side, and the current one) are
// in the DOM.
// Each card is a slide of the APG carousel pattern: a group with
// aria-roledescription="slide", labelled "N of M" and its store's name.
// The current slide (state.index: where the cards rest or are going) is
// the one a keyboard reaches (roving tabindex); the others are hidden
// from assistive technology, as the APG example hides its inactive
// slides, so that the live region speaks of the current one only.
const cards = new Map();
function drawCards() {
  const first = Math.max(0, Math.floor((state.offset - LEAD) / PAGE) - 1);
  const last = Math.min(state.count - 1, Math.ceil((state.offset + W) / PAGE) + 1);
  const focus = clampIndex(Math.round(state.offset / PAGE));
  const wanted = (i) => (i >= first && i <= last) || i === state.index;
  const indices = [];
  for (let i = first; i <= last; i++) indices.push(i);
  if (state.count && !indices.includes(state.index)) indices.push(state.index);
  for (const i of indices) {
    let el = cards.get(i);
    if (!el) {
      el = document.createElement("div"); el.className = "card"; el.dataset.index = i; el.style.width = ITEM + "px";
      el.setAttribute("role", "group"); el.setAttribute("aria-roledescription", "slide");
      const s = state.stores[i];
      el.innerHTML = `<div class="n"></div><div class="name"></div><div class="where"></div>`;
      el.querySelector(".n").textContent = `${i + 1} of ${state.count}`;
      el.querySelector(".name").textContent = s ? s.name : "store " + i;
      el.querySelector(".where").textContent = s ? `${s.latitude.toFixed(4)}, ${s.longitude.toFixed(4)}` + (s.address ? " · " + s.address : "") : "";
      el.setAttribute("aria-label", `${i + 1} of ${state.count}: ${s ? s.name : "store " + i}`);
      track.appendChild(el); cards.set(i, el);
    }
    const start = LEAD + i * PAGE - state.offset;
    const visible = Math.max(0, Math.min(start + ITEM, W) - Math.max(start, 0)) / ITEM;
    el.style.left = (RTL ? W - start - ITEM : start) + "px";
    el.style.transform = `scaleY(${0.7 + 0.3 * visible})`;
    el.classList.toggle("focused", i === focus);
  }
  // Keyboard focus follows the current slide, moved before the old one
  // loses its tabindex or leaves the DOM (either would drop focus to the
  // body, and with it the carousel's focus pause). No scrolling into
  // view: the strip is drawn by offsets, not scrolled.
  const current = cards.get(state.index), active = document.activeElement;
  if (current) { current.tabIndex = 0; current.removeAttribute("aria-hidden"); }
  if (current && active !== current && active && active.classList.contains("card") && track.contains(active)) {
    current.focus({ preventScroll: true });
  }
  for (const [i, el] of cards) {
    if (!wanted(i)) { el.remove(); cards.delete(i); }
    else if (el !== current) { el.removeAttribute("tabindex"); el.setAttribute("aria-hidden", "true"); }
  }
  // At an end, the button that would go past it does nothing: the page's
  // layout does not loop, and issue 44 has paging stop at an end of a
  // carousel that does not (only autoplay goes round). aria-disabled, not
  // disabled: a disabled button would drop the keyboard focus that
  // pressed it.
  document.getElementById("previous").setAttribute("aria-disabled", String(state.index <= 0));
  document.getElementById("next").setAttribute("aria-disabled", String(state.index >= state.count - 1));
  state.scrollLeft = webScrollLeft(state.offset);
  document.body.dataset.index = state.index;
}

function log(text) {
  state.messages++;
  logView.textContent = (text + "\n" + logView.textContent).slice(0, 6000);
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

// A frame: the cards at logical offset x, sent as the session's offset.
function setOffset(x) {
  state.offset = Math.max(0, Math.min(maxOffset(), x));
  drawCards();
  send({ offset: engineOffset(state.offset) });
}

// Scrolls to logical offset `target`, eased over `ms`, its frames sent as
// a drag's are. Under `prefers-reduced-motion: reduce` (or a scroll
// command that is not animated) it jumps: one frame at the target (WCAG
// 2.2 SC 2.3.3 Animation from Interactions; the reduceMotion:
// scrolls jump instead of animating). The map has no flight to skip: it
// draws each camera the session sends where it is, at once.
function animateTo(target, ms = 300, animated = true) {
  cancelAnimationFrame(state.animation);
  state.index = clampIndex(Math.round(target / PAGE));
  if (!animated || reducedMotion.matches) {
    document.body.dataset.lastScroll = "jump";
    setOffset(target);
    return;
  }
  document.body.dataset.lastScroll = "animated";
  const from = state.offset, start = performance.now();
  const step = (now) => {
    const u = Math.min(1, (now - start) / ms), e = u < 0.5 ? 2 * u * u : 1 - Math.pow(-2 * u + 2, 2) / 2;  // ease-in-out
    setOffset(from + (target - from) * e);
    if (u < 1) state.animation = requestAnimationFrame(step);
  };
  state.animation = requestAnimationFrame(step);
}

// One page to card `to`: clamped to the list (keys and buttons stop at
// the ends), or wrapped (autoplay goes from the last card to the first).
// The same frames a swipe sends, so the map follows as it does a swipe.
function goTo(to, wrap = false) {
  if (!state.count) return;
  const index = wrap ? ((to % state.count) + state.count) % state.count : clampIndex(to);
  if (index === state.index && Math.abs(state.offset - index * PAGE) < 0.5) return;
  animateTo(index * PAGE);
}

// Dragging: the content follows the finger; on release the projected rest
// p = x + v·d/(1 − d) picks the next card in the drag's direction, at most
// one card per gesture (UIKit's groupPagingCentered). In right-to-left a
// finger moving right reveals later cards: the logical offset grows.
const DRAG_SIGN = RTL ? -1 : 1;
let drag = null;
carousel.addEventListener("pointerdown", (e) => {
  cancelAnimationFrame(state.animation);
  carousel.setPointerCapture(e.pointerId); carousel.classList.add("dragging");
  drag = { x: e.clientX, offset: state.offset, start: Math.round(state.offset / PAGE), samples: [[performance.now(), state.offset]] };
  setPause("drag", true);
});
carousel.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const x = drag.offset - DRAG_SIGN * (e.clientX - drag.x);
  state.index = clampIndex(Math.round(Math.max(0, Math.min(maxOffset(), x)) / PAGE));
  setOffset(x);
  drag.samples.push([performance.now(), state.offset]); if (drag.samples.length > 5) drag.samples.shift();
});
const release = () => {
  if (!drag) return;
  carousel.classList.remove("dragging");
  const [t0, x0] = drag.samples[0], [t1, x1] = drag.samples[drag.samples.length - 1];
  const v = t1 > t0 ? (x1 - x0) / (t1 - t0) : 0;
  const x = state.offset, p = x + v * DECELERATION / (1 - DECELERATION);
  let index = p > x ? Math.ceil(p / PAGE) : p < x ? Math.floor(p / PAGE) : Math.round(p / PAGE);
  index = Math.max(drag.start - 1, Math.min(drag.start + 1, index));
  index = clampIndex(index);
  drag = null;
  animateTo(index * PAGE);
  setPause("drag", false);
};
carousel.addEventListener("pointerup", release);
carousel.addEventListener("pointercancel", release);

// Keys: Left and Right page one card, Home and End go to the first and
// the last. The arrows follow the screen: in right-to-left the next card
// lies to the LEFT, so ArrowLeft goes to it (the issue: the index is
// logical, "next" is index + 1). Handled on the strip, where the current
// slide has the focus.
carousel.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const forward = RTL ? "ArrowLeft" : "ArrowRight", backward = RTL ? "ArrowRight" : "ArrowLeft";
  if (e.key === forward) goTo(state.index + 1);
  else if (e.key === backward) goTo(state.index - 1);
  else if (e.key === "Home") goTo(0);
  else if (e.key === "End") goTo(state.count - 1);
  else return;
  e.preventDefault();
});
document.getElementById("previous").addEventListener("click", () => goTo(state.index - 1));
document.getElementById("next").addEventListener("click", () => goTo(state.index + 1));

// Autoplay, as the APG "Auto-Rotating Image Carousel" example and WCAG 2.2
// SC 2.2.2 (Pause, Stop, Hide: motion that lasts more than 5 s needs a
// way to pause or stop it) have it:
// - one card on per interval (5 s, or `?autoplay=MS`), wrapping from the
//   last card to the first;
// - paused while a reason holds: the pointer over the carousel, keyboard
//   focus inside it, a drag, the page hidden. The rotation button itself
//   is neither (as in the APG example: its hover and focus do not pause,
//   so a keyboard can start rotation from it). Rotation resumes when the
//   last reason ends, its timer from zero;
// - stopped by the rotation button, and then only the button restarts it;
// - stopped from the start under `prefers-reduced-motion: reduce` (the
//   APG example: "a prefers-reduced-motion user setting must always
//   override autoplay"), or with `?autoplay=stop`.
// The slides' live region is `off` while rotating (a screen reader is
// not interrupted by every turn) and `polite` otherwise, so a page the
// user asks for is announced (APG: aria-live).
const rotationButton = document.getElementById("rotation"), region = document.getElementById("region");
const autoplayView = document.getElementById("autoplay");
const autoplay = { interval: 5000, stopped: false, reasons: new Set(), timer: null, turns: 0, note: "" };
const rotating = () => !autoplay.stopped && autoplay.reasons.size === 0;

function updateAutoplay() {
  const now = rotating();
  if (now && autoplay.timer == null) autoplay.timer = setTimeout(turn, autoplay.interval);
  else if (!now && autoplay.timer != null) { clearTimeout(autoplay.timer); autoplay.timer = null; }
  // The APG example's labels: the button names the action it performs.
  rotationButton.setAttribute("aria-label", autoplay.stopped ? "Start automatic slide show" : "Stop automatic slide show");
  rotationButton.classList.toggle("playing", !autoplay.stopped);
  track.setAttribute("aria-live", now ? "off" : "polite");
  const mode = autoplay.stopped ? "stopped" : now ? "playing" : "paused";
  document.body.dataset.autoplay = mode;
  const every = autoplay.interval % 1000 ? `${autoplay.interval} ms` : `${autoplay.interval / 1000} s`;
  autoplayView.textContent = mode === "playing" ? `autoplay: every ${every}`
    : mode === "paused" ? `autoplay paused (${[...autoplay.reasons].join(", ")})` : "autoplay stopped";
  if (autoplay.note) autoplayView.textContent += ` (${autoplay.note})`;
}

function turn() {
  autoplay.timer = null;
  if (!rotating()) return;
  autoplay.turns++;
  goTo(state.index + 1, true);
  updateAutoplay();
}

function setPause(reason, on) {
  if (on === autoplay.reasons.has(reason)) return;
  if (on) autoplay.reasons.add(reason); else autoplay.reasons.delete(reason);
  updateAutoplay();
}

rotationButton.addEventListener("click", () => {
  autoplay.stopped = !autoplay.stopped;
  updateAutoplay();
});
// Hover: a mouse over the carousel but not over the rotation button.
region.addEventListener("pointerover", (e) => {
  if (e.pointerType === "mouse") setPause("hover", !rotationButton.contains(e.target));
});
region.addEventListener("pointerout", (e) => {
  if (e.pointerType === "mouse" && !region.contains(e.relatedTarget)) setPause("hover", false);
});
// Focus: anywhere inside the carousel but the rotation button; focusout
// says where focus goes next (null: out of the page, or to the body).
region.addEventListener("focusin", (e) => setPause("focus", !rotationButton.contains(e.target)));
region.addEventListener("focusout", (e) => {
  const to = e.relatedTarget;
  setPause("focus", !!to && region.contains(to) && !rotationButton.contains(to));
});
document.addEventListener("visibilitychange", () => setPause("hidden", document.hidden));
// Turning reduced motion on stops the rotation as it would have at load.
reducedMotion.addEventListener("change", () => { if (reducedMotion.matches) { autoplay.stopped = true; updateAutoplay(); } });

// `?autoplay=MS` (a whole number of ms, more than 0 and at most a day, the
// issue's bounds for autoplayMs) or `?autoplay=stop`; anything else is
// named beside the rotation button and the default kept.
function configureAutoplay() {
  const option = params.get("autoplay");
  if (option === "stop") autoplay.stopped = true;
  else if (option != null) {
    const ms = Number(option);
    if (Number.isInteger(ms) && ms > 0 && ms <= 86400000) autoplay.interval = ms;
    else autoplay.note = `?autoplay=${option} ignored: a whole number of ms from 1 to 86400000, or stop`;
  }
  if (reducedMotion.matches) autoplay.stopped = true;
  updateAutoplay();
}

canvas.addEventListener("click", (e) => {
  const r = canvas.getBoundingClientRect(), x = (e.clientX - r.left) * canvas.width / r.width, y = (e.clientY - r.top) * canvas.height / r.height;
  let best = null, bestD = 12 * 12;
  state.stores.forEach((s, i) => { const q = toScreen(s.p), d = (q.x - x) ** 2 + (q.y - y) ** 2; if (d < bestD) { best = i; bestD = d; } });
  if (best != null) send({ tapMarker: best });
});

// The phone's map as the camera shows it: MAP_W × MAP_H points at its
// zoom around its centre, unprojected; the overview's box before any camera.
function visibleBox() {
  let x0 = view.minX, y0 = view.minY, x1 = view.minX + canvas.width / view.scale, y1 = view.minY + canvas.height / view.scale;
  if (state.camera) {
    const c = project(state.camera.latitude, state.camera.longitude), k = Math.pow(2, state.camera.zoom);
    x0 = c.x - MAP_W / 2 / k; x1 = c.x + MAP_W / 2 / k; y0 = c.y - MAP_H / 2 / k; y1 = c.y + MAP_H / 2 / k;
  }
  const nw = unproject(x0, y0), se = unproject(x1, y1);
  return { south: Math.max(-90, se.lat), north: Math.min(90, nw.lat), west: Math.max(-180, nw.lng), east: Math.min(180, se.lng) };
}

function search(area) {
  const text = document.getElementById("query").value.trim();
  const query = { limit: 200, ...(area ? visibleBox() : {}) };
  if (text) query.q = text;
  if (!text && !area) return showList();
  send({ query });
}

function showList() {
  send({ query: null });
  showStores(state.listStores, false);
  statusView.textContent = `session open · ${state.list} · ${state.listStores.length} stores`;
}

// The cards and markers become `stores` (the results, or the list again).
function showStores(stores, results) {
  state.stores = stores; state.count = stores.length; state.results = results;
  state.index = clampIndex(Math.round(state.offset / PAGE));
  for (const el of cards.values()) el.remove();
  cards.clear();
  document.getElementById("clear").disabled = !results;
  document.body.dataset.results = results ? stores.length : "";
  drawCards(); fetchMarkers().catch((error) => log("marker tiles: " + error.message));
}

document.getElementById("search").addEventListener("submit", (e) => { e.preventDefault(); search(false); });
document.getElementById("area").addEventListener("click", () => search(true));
document.getElementById("clear").addEventListener("click", showList);

function onMessage(event) {
  const m = JSON.parse(event.data);
  log(event.data);
  if (m.type === "results") {
    for (const s of m.stores) s.p = project(s.latitude, s.longitude);
    showStores(m.stores, true);
    statusView.textContent = `${m.count} results${m.next ? " (more: narrow the search)" : ""} · ${state.list}`;
  }
  else if (m.type === "error") { statusView.textContent = m.error.message; }
  else if (m.type === "camera") { state.camera = m; document.body.dataset.cameraIndex = m.index; }
  else if (m.type === "marker") {
    state.selected = m.index; document.body.dataset.selected = m.index;
    fetchMarkers().catch((error) => log("marker tiles: " + error.message));
  }
  else if (m.type === "scroll") { animateTo(logicalOffset(m.targetOffset), 300, m.animated !== false); }
  drawMap();
}

async function getJSON(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : response.statusText);
  return body;
}

async function start() {
  const lists = await getJSON("/lists");
  const select = document.getElementById("list");
  for (const l of lists) { const o = document.createElement("option"); o.value = l.name; o.textContent = `${l.name} (${l.count})`; select.appendChild(o); }
  const wanted = new URLSearchParams(location.search).get("list");
  const list = lists.find((l) => l.name === wanted) || lists[0];
  if (!list) { statusView.textContent = "no lists: import one with carousel import FILE --list NAME"; return; }
  select.value = list.name;
  select.addEventListener("change", () => { location.search = "?list=" + encodeURIComponent(select.value); });
  state.list = list.name; state.count = list.count;

  let cursor = null;
  do {
    const page = await getJSON(`/lists/${encodeURIComponent(list.name)}/stores?limit=1000` + (cursor ? "&cursor=" + cursor : ""));
    for (const s of page.stores) { s.p = project(s.latitude, s.longitude); state.stores.push(s); }
    cursor = page.next;
  } while (cursor && state.stores.length < MAX_MARKERS);
  state.listStores = state.stores;
  fitView(); drawCards(); drawMap();
  await Promise.all([fetchMarkers(), fetchBasemap()]);

  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/lists/${encodeURIComponent(list.name)}/session`);
  state.socket = socket;
  socket.onopen = () => {
    statusView.textContent = `session open · ${list.name} · ${list.count} stores`;
    socket.send(JSON.stringify({ layout: { viewport: W, itemLength: ITEM, spacing: SPACING, behavior: "groupPagingCentered", debounceMs: 250, zoom: ZOOM,
      ...(RTL ? { layoutDirection: "rightToLeft" } : {}) } }));
    document.body.dataset.ready = "true";
  };
  socket.onmessage = onMessage;
  socket.onclose = () => { statusView.textContent = "session closed"; };
}

// For the browser test: where a store is drawn, and the tile decoder.
window.carouselPage = {
  state, overviewZoom, mvt, inset: INSET,
  autoplay: () => ({ interval: autoplay.interval, stopped: autoplay.stopped, playing: rotating(), reasons: [...autoplay.reasons], turns: autoplay.turns }),
  markerPoint: (i) => toScreen(state.stores[i].p),
  pointOf: (latitude, longitude) => toScreen(project(latitude, longitude)),
};

configureAutoplay();
start().catch((error) => { statusView.textContent = "error: " + error.message; });
