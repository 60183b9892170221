#!/usr/bin/env python3
"""Our map tiles as two outside decoders read them (scripts/check-tiles runs this).

    check-tiles.py BASE_URL CAROUSEL DB WORK LIST...

For each list, tiles at every zoom 0-16 around seeded store positions (and,
for some, the same tile with `?selected=` that store) are fetched from the
server at BASE_URL and decoded twice: by Python's mapbox-vector-tile and
by GDAL's MVT driver (`ogr2ogr -f GeoJSON` on the tile file, with the
tile's z/x/y as open options). Both must give the same features: feature
id, point in tile units, every property with its value and type. Each
tile must also be what the server's JSON clusters answer holds inside the
tile (`GET /lists/{name}/clusters` over the tile's box: cluster ids and
counts, store positions and ids), and the very bytes `carousel tiles`
writes for the same address. Prints one summary line; exits 1 on the
first disagreement, naming it.
"""

import importlib.metadata
import json
import math
import random
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import mapbox_vector_tile

EXTENT = 4096
MAX_ZOOM = 16
# Web Mercator's half width in metres, GDAL's coordinates for a tile.
HALF = 20037508.342789244
# Features this close to the tile's edge (in tile units) are left out of
# the comparison with the JSON answer: a position rounded to the tile's
# grid may cross the edge that the box query tests in degrees.
EDGE = 2
# Stores whose tiles are sampled per list and zoom.
SAMPLES = 4


def fail(message):
    print(f"check-tiles: {message}", file=sys.stderr)
    sys.exit(1)


def get(url):
    """(status, body bytes) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=600) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def tile_of(latitude, longitude, zoom):
    """The XYZ tile holding a point, latitudes past Web Mercator's in the edge row."""
    size = 1 << zoom
    sine = min(max(math.sin(math.radians(latitude)), -0.9999999999), 0.9999999999)
    x = (longitude + 180) / 360 * size
    y = (0.5 - 0.25 * math.log((1 + sine) / (1 - sine)) / math.pi) * size
    return min(max(int(x), 0), size - 1), min(max(int(y), 0), size - 1)


def tile_units(latitude, longitude, z, x, y):
    """A point in the tile's units (0..4096 inside), unrounded."""
    size = (1 << z) * EXTENT
    sine = min(max(math.sin(math.radians(latitude)), -0.9999999999), 0.9999999999)
    u = (longitude + 180) / 360 * size - x * EXTENT
    v = (0.5 - 0.25 * math.log((1 + sine) / (1 - sine)) / math.pi) * size - y * EXTENT
    return u, v


def tile_box(z, x, y):
    """south, west, north, east of a tile, in degrees."""
    size = 1 << z

    def latitude(row):
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * row / size))))

    return latitude(y + 1), x / size * 360 - 180, latitude(y), (x + 1) / size * 360 - 180


def decode_mapbox(body):
    """Features by id from mapbox-vector-tile: (kind, u, v, properties) with values as typed in the tile."""
    layers = mapbox_vector_tile.decode(body, default_options={"y_coord_down": True})
    if set(layers) != {"stores"}:
        fail(f"layers {sorted(layers)}, not just 'stores'")
    layer = layers["stores"]
    if layer.get("extent") != EXTENT or layer.get("version") != 2:
        fail(f"layer extent {layer.get('extent')} version {layer.get('version')}, not 4096 and 2")
    features = {}
    for feature in layer["features"]:
        geometry = feature["geometry"]
        if geometry["type"] != "Point":
            fail(f"a {geometry['type']} feature: every marker is a Point")
        if feature.get("id") in features:
            fail(f"feature id {feature.get('id')} twice")
        u, v = geometry["coordinates"]
        features[feature["id"]] = (u, v, feature["properties"])
    return features


def decode_gdal(path, z, x, y, work):
    """Features by id from GDAL's MVT driver, with its field types (OGR's schema)."""
    output = work / (path.stem + ".geojson")
    subprocess.run(
        ["ogr2ogr", "-f", "GeoJSON", str(output), str(path), "-oo", f"X={x}", "-oo", f"Y={y}", "-oo", f"Z={z}",
         # CLIP=NO: GDAL drops what lies in the buffer past the tile's edge otherwise.
         "-oo", "CLIP=NO", "stores"],
        check=True, capture_output=True)
    info = subprocess.run(
        ["ogrinfo", "-ro", "-so", "-oo", f"X={x}", "-oo", f"Y={y}", "-oo", f"Z={z}", str(path), "stores"],
        check=True, capture_output=True, text=True).stdout
    # `name: Type (width.precision)`, subtype in brackets: `cluster: Integer(Boolean) (0.0)`
    types = {}
    for line in info.splitlines():
        name, colon, rest = line.partition(": ")
        if colon and "(" in rest and " " not in name:
            types[name] = rest.split(" ")[0]
    document = json.loads(output.read_text())
    features = {}
    size = (1 << z) * EXTENT
    for feature in document["features"]:
        properties = dict(feature["properties"])
        identifier = properties.pop("mvt_id", None)
        if identifier is None:
            fail(f"GDAL read a feature without its id in {path.name}")
        X, Y = feature["geometry"]["coordinates"]
        u = (X + HALF) / (2 * HALF) * size - x * EXTENT
        v = (HALF - Y) / (2 * HALF) * size - y * EXTENT
        features[identifier] = (u, v, {key: value for key, value in properties.items() if value is not None})
    return features, types


def same_value(ours, gdal, gdal_type):
    """mapbox-vector-tile's value (the tile's own type) against GDAL's, typed by its field."""
    if gdal_type == "Integer(Boolean)":
        return isinstance(ours, bool) and gdal is ours
    if isinstance(ours, bool):
        return False
    if gdal_type in ("Integer", "Integer64"):
        return type(ours) is int and type(gdal) is int and ours == gdal
    if gdal_type == "Real":
        return isinstance(ours, (int, float)) and isinstance(gdal, (int, float)) and math.isclose(ours, gdal, rel_tol=1e-12)
    if gdal_type == "String":
        # A field whose values have several types (point_count_abbreviated:
        # 12 or "3.2k") is a String field to GDAL: the value as text.
        return isinstance(gdal, str) and (gdal == ours if isinstance(ours, str) else gdal == str(ours))
    return False


def check_properties(kind, properties, where):
    """The layer's fields (docs/server.md, TileJSON): names and types."""
    expected = ({"cluster": bool, "cluster_id": int, "point_count": int, "expansion_zoom": int}
                if kind == "cluster" else {"id": str, "name": str})
    for key, kind_of in expected.items():
        if type(properties.get(key)) is not kind_of:
            fail(f"{where}: {key} is {properties.get(key)!r}, not a {kind_of.__name__}")
    allowed = set(expected) | ({"point_count_abbreviated"} if kind == "cluster" else {"category"})
    if not set(properties) <= allowed:
        fail(f"{where}: unexpected properties {sorted(set(properties) - allowed)}")
    if kind == "cluster" and not isinstance(properties.get("point_count_abbreviated"), (int, str)):
        fail(f"{where}: point_count_abbreviated is {properties.get('point_count_abbreviated')!r}")
    if kind == "store" and "category" in properties and not isinstance(properties["category"], str):
        fail(f"{where}: category is {properties['category']!r}")


def main():
    base, carousel, db, work = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
    lists = sys.argv[5:]
    random.seed(43)
    tiles = features_compared = interior_compared = selected_tiles = 0
    for name in lists:
        quoted = urllib.parse.quote(name, safe="")
        stores, cursor = [], None
        for _ in range(10_000):  # bounded: a page of 1,000 stores a request
            status, body = get(f"{base}/lists/{quoted}/stores?limit=1000" + (f"&cursor={cursor}" if cursor else ""))
            if status != 200:
                fail(f"GET /lists/{name}/stores answered {status}")
            page = json.loads(body)
            stores += page["stores"]
            cursor = page["next"]
            if not cursor:
                break
        if not stores:
            fail(f"list {name} is empty")
        for z in range(0, MAX_ZOOM + 1):
            picked = random.sample(range(len(stores)), min(SAMPLES, len(stores)))
            addresses = {}
            for position in picked:
                address = tile_of(stores[position]["latitude"], stores[position]["longitude"], z)
                addresses.setdefault(address, position)
            for index, ((x, y), position) in enumerate(sorted(addresses.items())):
                # Every other tile also with its store selected: out of every cluster.
                for selected in [None, position] if index % 2 == 0 else [None]:
                    query = "" if selected is None else f"?selected={selected}"
                    where = f"{name} {z}/{x}/{y}{query}"
                    status, body = get(f"{base}/lists/{quoted}/tiles/{z}/{x}/{y}.mvt{query}")
                    if status != 200:
                        fail(f"{where}: {status}; a tile holding a store has markers")
                    path = work / f"{name}-{z}-{x}-{y}-{selected}.mvt"
                    path.write_bytes(body)

                    # `carousel tiles` writes the same bytes.
                    cli = work / (path.stem + "-cli.mvt")
                    command = [carousel, "tiles", "--list", name, "--zoom", str(z), "--x", str(x), "--y", str(y),
                               "--output", str(cli), "--db", db]
                    if selected is not None:
                        command += ["--selected", str(selected)]
                    subprocess.run(command, check=True, capture_output=True)
                    if cli.read_bytes() != body:
                        fail(f"{where}: `carousel tiles` wrote other bytes than the server answered")

                    mapbox = decode_mapbox(body)
                    gdal, types = decode_gdal(path, z, x, y, work)
                    if set(mapbox) != set(gdal):
                        fail(f"{where}: feature ids differ: mapbox-vector-tile {sorted(mapbox)[:5]}…, GDAL {sorted(gdal)[:5]}…")
                    for identifier, (u, v, properties) in mapbox.items():
                        gu, gv, gdal_properties = gdal[identifier]
                        if abs(u - gu) > 0.01 or abs(v - gv) > 0.01:
                            fail(f"{where}: feature {identifier} at ({u}, {v}) for mapbox-vector-tile, ({gu:.3f}, {gv:.3f}) for GDAL")
                        if set(properties) != set(gdal_properties):
                            fail(f"{where}: feature {identifier}: properties {sorted(properties)} against GDAL's {sorted(gdal_properties)}")
                        for key, value in properties.items():
                            if not same_value(value, gdal_properties[key], types.get(key)):
                                fail(f"{where}: feature {identifier}: {key} {value!r} against GDAL's {gdal_properties[key]!r} ({types.get(key)})")
                        kind = "cluster" if properties.get("cluster") is True else "store"
                        check_properties(kind, properties, f"{where} feature {identifier}")
                        if kind == "cluster" and properties["cluster_id"] != identifier:
                            fail(f"{where}: cluster {properties['cluster_id']} has feature id {identifier}")
                        if kind == "store" and stores[identifier]["id"] != properties["id"]:
                            fail(f"{where}: feature {identifier} is store {properties['id']}, list position {identifier} is {stores[identifier]['id']}")
                        features_compared += 1
                    if selected is not None:
                        selected_tiles += 1
                        mine = mapbox.get(selected)
                        if mine is None or mine[2].get("cluster") is True:
                            fail(f"{where}: the selected store is not a marker of its own")

                    # The JSON answer over the tile's box: the same markers inside it.
                    south, west, north, east = tile_box(z, x, y)
                    parameters = {"zoom": z, "south": south, "west": west, "north": north, "east": east}
                    if selected is not None:
                        parameters["selected"] = selected
                    status, body = get(f"{base}/lists/{quoted}/clusters?" + urllib.parse.urlencode(parameters))
                    if status != 200:
                        fail(f"{where}: GET /lists/{name}/clusters answered {status}")

                    def inside(u, v):
                        return EDGE <= u <= EXTENT - EDGE and EDGE <= v <= EXTENT - EDGE

                    from_json = set()
                    for marker in json.loads(body):
                        u, v = tile_units(marker["latitude"], marker["longitude"], z, x, y)
                        if inside(u, v):
                            from_json.add(("cluster", marker["id"], marker["count"]) if marker["type"] == "cluster"
                                          else ("store", marker["index"], marker["id"]))
                    from_tile = set()
                    for identifier, (u, v, properties) in mapbox.items():
                        if inside(u, v):
                            from_tile.add(("cluster", identifier, properties["point_count"]) if properties.get("cluster") is True
                                          else ("store", identifier, properties["id"]))
                    if from_json != from_tile:
                        fail(f"{where}: inside the tile, the JSON answer has {sorted(from_json - from_tile)[:3]} more and "
                             f"the tile {sorted(from_tile - from_json)[:3]} more")
                    interior_compared += len(from_tile)
                    tiles += 1
    print(f"check-tiles: {tiles} tiles of {len(lists)} lists at zooms 0-{MAX_ZOOM} ({selected_tiles} with a selected store): "
          f"{features_compared} features identical in mapbox-vector-tile {importlib.metadata.version('mapbox-vector-tile')} "
          f"and {subprocess.run(['ogrinfo', '--version'], capture_output=True, text=True).stdout.split(',')[0].strip()}, "
          f"{interior_compared} inside the tiles matching GET /lists/{{name}}/clusters, every tile the bytes of `carousel tiles`")


if __name__ == "__main__":
    main()
