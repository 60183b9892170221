// The page of `carousel serve`: the stores of a list on a Web-Mercator map,
// the camera the server sends, and a carousel of cards the user drags. The
// carousel only reports its offsets (as scrollViewDidScroll would); which
// store the map shows, and when, is decided by the server's view model
// (debounced 250 ms after the last frame, distinct) over the session.
// A search (the box, or "search this area" for what the phone's map
// shows) asks the session for a query: the cards and the markers become
// its results until "whole list".
"use strict";

const W = 390, ITEM = 300, SPACING = 12, PAGE = ITEM + SPACING;   // groupPagingCentered: one card, neighbours peek
const LEAD = (W - ITEM) / 2;                                         // centre alignment's leading inset
const MAP_W = 390, MAP_H = 844, INSETS = { top: 0, left: 0, bottom: 170, right: 0 };  // the phone's map under the cards
const ZOOM = 13, TILE = 256, MAX_MARKERS = 5000;
const DECELERATION = 0.99;                                           // UIKit's .fast, per ms

const state = {
  list: null, count: 0, stores: [], listStores: [], results: false, markers: null, offset: 0, selected: null, camera: null,
  messages: 0, socket: null, animation: null,
};
window.carouselState = state;

const canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
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

// The markers of the canvas's box at the overview zoom: clusters, and
// stores on their own — the selected one always, never inside a cluster
// (the server's clusters endpoint). Fetched again when the selection moves;
// an answer that comes after a newer request's is dropped.
let markersRequest = 0;
async function fetchMarkers() {
  const request = ++markersRequest;
  // Results are few and drawn as they are; the clusters are the list's.
  if (state.results) { state.markers = null; drawMap(); return; }
  const nw = unproject(view.minX, view.minY), se = unproject(view.minX + canvas.width / view.scale, view.minY + canvas.height / view.scale);
  const box = {
    south: Math.max(-90, se.lat), north: Math.min(90, nw.lat),
    west: Math.max(-180, nw.lng), east: Math.min(180, se.lng),
  };
  const query = new URLSearchParams({ zoom: overviewZoom().toFixed(3), ...box });
  if (state.selected != null) query.set("selected", state.selected);
  const markers = await getJSON(`/lists/${encodeURIComponent(state.list)}/clusters?${query}`);
  if (request !== markersRequest) return;
  state.markers = markers;
  document.body.dataset.markers = markers.length;
  drawMap();
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
      // Area grows with the count, as map styles draw cluster circles.
      const r = 9 + 3 * Math.log2(m.count);
      ctx.fillStyle = "rgba(69,123,157,.85)"; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(q.x, q.y, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      ctx.fillStyle = "#fff"; ctx.fillText(String(m.count), q.x, q.y);
    } else {
      ctx.fillStyle = "#457b9d"; ctx.fillRect(q.x - 3, q.y - 3, 6, 6);
    }
  }
  ctx.textAlign = "start"; ctx.textBaseline = "alphabetic";
}

function drawMap() {
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  drawMarkers();
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

// Cards: item i rests at offset i·PAGE, its leading edge at LEAD + i·PAGE − offset;
// the scale is 0.7 + 0.3·(visible fraction), as the engine's visibility.
const cards = new Map();
function drawCards() {
  const first = Math.max(0, Math.floor((state.offset - LEAD) / PAGE) - 1);
  const last = Math.min(state.count - 1, Math.ceil((state.offset + W) / PAGE) + 1);
  const focus = Math.max(0, Math.min(state.count - 1, Math.round(state.offset / PAGE)));
  for (const [i, el] of cards) if (i < first || i > last) { el.remove(); cards.delete(i); }
  for (let i = first; i <= last; i++) {
    let el = cards.get(i);
    if (!el) {
      el = document.createElement("div"); el.className = "card"; el.dataset.index = i; el.style.width = ITEM + "px";
      const s = state.stores[i];
      el.innerHTML = `<div class="n">#${i}</div><div class="name"></div><div class="where"></div>`;
      el.querySelector(".name").textContent = s ? s.name : "store " + i;
      el.querySelector(".where").textContent = s ? `${s.latitude.toFixed(4)}, ${s.longitude.toFixed(4)}` + (s.address ? " · " + s.address : "") : "";
      track.appendChild(el); cards.set(i, el);
    }
    const left = LEAD + i * PAGE - state.offset;
    const visible = Math.max(0, Math.min(left + ITEM, W) - Math.max(left, 0)) / ITEM;
    el.style.left = left + "px";
    el.style.transform = `scaleY(${0.7 + 0.3 * visible})`;
    el.classList.toggle("focused", i === focus);
  }
}

function log(text) {
  state.messages++;
  logView.textContent = (text + "\n" + logView.textContent).slice(0, 6000);
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function setOffset(x) {
  state.offset = Math.max(0, Math.min((state.count - 1) * PAGE, x));
  drawCards();
  send({ offset: state.offset });
}

function animateTo(target, ms = 300) {
  cancelAnimationFrame(state.animation);
  const from = state.offset, start = performance.now();
  const step = (now) => {
    const u = Math.min(1, (now - start) / ms), e = u < 0.5 ? 2 * u * u : 1 - Math.pow(-2 * u + 2, 2) / 2;  // ease-in-out
    setOffset(from + (target - from) * e);
    if (u < 1) state.animation = requestAnimationFrame(step);
  };
  state.animation = requestAnimationFrame(step);
}

// Dragging: the content follows the finger; on release the projected rest
// p = x + v·d/(1 − d) picks the next card in the drag's direction, at most
// one card per gesture (UIKit's groupPagingCentered).
let drag = null;
carousel.addEventListener("pointerdown", (e) => {
  cancelAnimationFrame(state.animation);
  carousel.setPointerCapture(e.pointerId); carousel.classList.add("dragging");
  drag = { x: e.clientX, offset: state.offset, start: Math.round(state.offset / PAGE), samples: [[performance.now(), state.offset]] };
});
carousel.addEventListener("pointermove", (e) => {
  if (!drag) return;
  setOffset(drag.offset - (e.clientX - drag.x));
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
  index = Math.max(0, Math.min(state.count - 1, index));
  drag = null;
  animateTo(index * PAGE);
};
carousel.addEventListener("pointerup", release);
carousel.addEventListener("pointercancel", release);

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
  for (const el of cards.values()) el.remove();
  cards.clear();
  document.getElementById("clear").disabled = !results;
  document.body.dataset.results = results ? stores.length : "";
  drawCards(); fetchMarkers().catch((error) => log("clusters: " + error.message));
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
    fetchMarkers().catch((error) => log("clusters: " + error.message));
  }
  else if (m.type === "scroll") { animateTo(m.targetOffset); }
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
  await fetchMarkers();

  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/lists/${encodeURIComponent(list.name)}/session`);
  state.socket = socket;
  socket.onopen = () => {
    statusView.textContent = `session open · ${list.name} · ${list.count} stores`;
    socket.send(JSON.stringify({ layout: { viewport: W, itemLength: ITEM, spacing: SPACING, behavior: "groupPagingCentered", debounceMs: 250, zoom: ZOOM } }));
    document.body.dataset.ready = "true";
  };
  socket.onmessage = onMessage;
  socket.onclose = () => { statusView.textContent = "session closed"; };
}

// For the browser test: where a store is drawn.
window.carouselPage = {
  state, overviewZoom,
  markerPoint: (i) => toScreen(state.stores[i].p),
  pointOf: (latitude, longitude) => toScreen(project(latitude, longitude)),
};

start().catch((error) => { statusView.textContent = "error: " + error.message; });
