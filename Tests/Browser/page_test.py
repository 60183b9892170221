"""The page of `carousel serve` in a real browser (headless Chromium through
Selenium): load `/`, check that the map is drawn from the server's vector
tiles (the basemap's land, the list's clusters and selected store) and the
cards' Korean text is rendered; drag the carousel one card on, and check
that the selected marker and the drawn camera follow; click a marker and
check that the cards scroll to it; check that no request left the server's
origin. Saves a screenshot. Then the carousel as the APG carousel pattern
has it, left to right and right to left (`?dir=rtl`): keyboard-only
paging (the marker and the camera follow), the rotation button, autoplay
(turns, pauses for hover and focus, stays stopped once stopped, wraps),
prefers-reduced-motion (starts stopped, pages jump), and axe-core with no
violations, rotating and stopped, in both directions.

    python3 Tests/Browser/page_test.py URL SCREENSHOT.png
"""
import json
import re
import sys
import time
import urllib.request
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.keys import Keys
from axe_selenium_python import Axe

PAGE = 312          # the page's card length + spacing
SELECTED_RED = (230, 57, 70)


def wait(driver, condition, what, timeout=10.0):
    """Polls `condition` (a JS expression) until it is truthy; bounded."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script("return " + condition)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} ({condition})")


def pixel(driver, x, y):
    return tuple(driver.execute_script(
        "const c = document.getElementById('map').getContext('2d');"
        "return Array.from(c.getImageData(arguments[0], arguments[1], 1, 1).data).slice(0, 3);", x, y))


CLUSTER_BLUE = (69, 123, 157)
LAND = (241, 239, 228)   # the basemap's country fill
SEA = (219, 231, 240)
HANGUL = re.compile("[\uac00-\ud7a3]")


def check_markers(driver, selected):
    """The server's clusters as drawn: every store counted once, the
    selected one on its own, and at least one cluster circle, filled where
    its centre is (its count's white digits aside, so a pixel just below)."""
    # The markers asked for this selection (an earlier selection's may
    # show the store on its own too, and lack a cluster this one has).
    wait(driver, f"carouselPage.state.markersSelected === {selected} && carouselPage.state.markers.some("
                 f"m => m.type === 'store' && m.index === {selected})", f"store {selected} outside every cluster")
    markers = driver.execute_script("return carouselPage.state.markers")
    count = driver.execute_script("return carouselPage.state.count")
    clusters = [m for m in markers if m["type"] == "cluster"]
    assert clusters, f"the overview at zoom {driver.execute_script('return carouselPage.overviewZoom()'):.2f} draws clusters"
    assert sum(m["count"] for m in clusters) + len(markers) - len(clusters) == count, "each store counted once"
    big = max(clusters, key=lambda m: m["count"])
    x, y = driver.execute_script(
        "const p = carouselPage.pointOf(arguments[0], arguments[1]); return [Math.round(p.x), Math.round(p.y)]",
        big["latitude"], big["longitude"])
    drawn = pixel(driver, x, y + 8)
    # The canvas is transparent: the circle's colour reads back as drawn,
    # or nearly (the camera's 8 % tint may lie over it).
    assert all(abs(a - b) <= 16 for a, b in zip(drawn, CLUSTER_BLUE)), \
        f"cluster of {big['count']} drawn at {x},{y + 8}: {drawn}"
    # The markers decoded from the tiles are the clusters endpoint's at
    # the tiles' zoom (asked from here, not the page: the page asks tiles
    # only): the same clusters by id with the same counts, the same stores
    # by list position, each where the endpoint puts it to within the
    # tile's grid (1/4096 of a tile).
    zoom = int(driver.execute_script("return Math.floor(carouselPage.overviewZoom())"))
    origin = driver.execute_script("return location.origin")
    with urllib.request.urlopen(f"{origin}/lists/seoul/clusters?zoom={zoom}&south=-85&west=-180&north=85&east=180"
                                f"&selected={selected}") as response:
        expected = json.load(response)
    key = lambda m: (m["type"], m["id"] if m["type"] == "cluster" else m["index"])
    drawn = {key(m): m for m in markers}
    assert sorted(drawn) == sorted(key(m) for m in expected), (sorted(drawn), sorted(key(m) for m in expected))
    grid = 360 / 2 ** zoom / 4096
    for m in expected:
        d = drawn[key(m)]
        assert d.get("count", 1) == m.get("count", 1), (d, m)
        assert abs(d["latitude"] - m["latitude"]) <= grid and abs(d["longitude"] - m["longitude"]) <= grid, (d, m)
    print(f"page: {len(clusters)} clusters and {len(markers) - len(clusters)} stores at zoom "
          f"{driver.execute_script('return carouselPage.overviewZoom()'):.2f}, store {selected} on its own, "
          f"as /clusters gives them at zoom {zoom}")


def check_basemap(driver):
    """The basemap's tiles decoded and drawn: South Korea's polygon and
    Seoul's label in them, Seoul's point on the canvas land-coloured (a
    pixel beside its label's dot), and land over much of the canvas."""
    wait(driver, "document.body.dataset.basemap > 0", "the basemap's tiles")
    names = driver.execute_script(
        "return carouselPage.state.basemap.flatMap(({layers}) => Object.values(layers).flatMap("
        "l => l.features.map(f => l.name + ' ' + f.properties.name)))")
    assert "countries South Korea" in names and "places Seoul" in names, names
    seoul = driver.execute_script(
        "const p = carouselPage.pointOf(37.5683, 126.9978); return [Math.round(p.x), Math.round(p.y)]")
    # 8 px right of the dot (radius 3), below the label (drawn 11 px above).
    x, y = seoul[0] + 8, seoul[1] + 4
    drawn = pixel(driver, x, y)
    assert all(abs(a - b) <= 4 for a, b in zip(drawn, LAND)), f"Seoul, South Korea, is land at {x},{y}: {drawn}"
    share = driver.execute_script(
        "const c = document.getElementById('map'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        "let land = 0; for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - arguments[0]) + Math.abs(d[i + 1] - arguments[1])"
        " + Math.abs(d[i + 2] - arguments[2]) <= 6) land++; return land / (d.length / 4)", *LAND)
    assert share > 0.3, f"land covers {share:.0%} of the canvas"
    # The locator inset, 2^7 times farther out: the Korean peninsula, so
    # sea and land both, their border the coastline.
    inset = driver.execute_script("return carouselPage.inset")
    colours = driver.execute_script(
        "const d = document.getElementById('map').getContext('2d').getImageData(...arguments).data, seen = {};"
        "for (let i = 0; i < d.length; i += 4) { const k = d[i] + ',' + d[i + 1] + ',' + d[i + 2]; seen[k] = (seen[k] || 0) + 1; }"
        "return seen", inset["x"], inset["y"], inset["width"], inset["height"])
    area = inset["width"] * inset["height"]
    land, sea = colours.get(",".join(map(str, LAND)), 0) / area, colours.get(",".join(map(str, SEA)), 0) / area
    assert land > 0.1 and sea > 0.1, f"the inset shows land ({land:.0%}) and sea ({sea:.0%})"
    print(f"page: basemap drawn ({len(names)} features), land on {share:.0%} of the canvas, Seoul at {seoul}; "
          f"inset {land:.0%} land, {sea:.0%} sea")


def check_korean(driver):
    """A card's Korean address is in the DOM and drawn with real glyphs:
    without a Hangul font Chromium draws every syllable as the same
    .notdef box, so two different words of the same length would look
    alike, and alike a run of private-use characters."""
    text = driver.execute_script("return document.querySelector('.card .where').textContent")
    assert HANGUL.search(text), f"a card shows a Korean address: {text!r}"
    word = HANGUL.findall(text)
    rendered = driver.execute_script(
        "const font = getComputedStyle(document.querySelector('.card .where')).font;"
        "const ink = (s) => { const c = document.createElement('canvas'); c.width = 200; c.height = 40;"
        " const g = c.getContext('2d'); g.font = font; g.fillText(s, 4, 28); return c.toDataURL(); };"
        "return [ink('강남') !== ink('서울'), ink('강남') !== ink('\ue000\ue001'), ink('강남') !== ink('')]")
    assert all(rendered), f"Hangul rendered with a font that has it (강남 ≠ 서울, ≠ tofu, not blank): {rendered}"
    print(f"page: Korean text rendered ({''.join(word[:4])}…)")


def check_requests(driver, origin):
    """Every request the page made (documents, scripts, fetches, fonts, the
    WebSocket) went to the server it came from: Chromium's network log,
    and the page's own resource timing list as a second witness. The map's
    data came from tiles: the basemap's and the list's."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
        elif message["method"] == "Network.webSocketCreated":
            urls.append(message["params"]["url"])
    urls += driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    host = urlsplit(origin).netloc
    away = [u for u in urls if not (urlsplit(u).scheme in ("http", "ws") and urlsplit(u).netloc == host)
            and not u.startswith("data:")]
    assert not away, f"requests that left {origin}: {away[:5]}"
    assert any("/basemap/" in u for u in urls), "the basemap's tiles were requested"
    assert any("/lists/seoul/tiles/" in u and "selected=" in u for u in urls), "the list's tiles were requested with the selection"
    assert not any("/clusters" in u for u in urls), "the markers come from tiles, not the clusters endpoint"
    assert any(u.startswith("ws://") for u in urls), "the network log saw the session's WebSocket"
    print(f"page: {len(urls)} requests, all to {origin}")


# The carousel as the W3C ARIA Authoring Practices Guide's carousel pattern
# and its auto-rotating example have it (issue 44, part 6), and WCAG 2.2
# SC 2.2.2 (Pause, Stop, Hide). `?autoplay=MS` shortens the interval so
# that the checks stay fast; every wait below is bounded.
STOP_LABEL, START_LABEL = "Stop automatic slide show", "Start automatic slide show"


def open_page(driver, url, query, ready=True):
    """Loads the page with `query`, the mouse parked on the header (off the
    carousel: the pointer's place survives a navigation), and waits for
    the session and the first marker."""
    driver.get(url + query)
    wait(driver, "document.body.dataset.ready === 'true'", f"the session to open ({query})")
    wait(driver, "document.body.dataset.selected === '0'", f"the initial marker ({query})")
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "header h1")).perform()


def attr(driver, selector, name):
    return driver.execute_script("return document.querySelector(arguments[0]).getAttribute(arguments[1])", selector, name)


def autoplay(driver):
    return driver.execute_script("return carouselPage.autoplay()")


def check_axe(driver, url, rtl, playing):
    """axe-core (axe-selenium-python's, all its rules) finds nothing on the
    page: the carousel rotating or stopped, left to right or right to left."""
    open_page(driver, url, "?dir=rtl" if rtl else "")
    if not playing:
        driver.find_element(By.ID, "rotation").click()
    want = "playing" if playing else "stopped"
    wait(driver, f"document.body.dataset.autoplay === '{want}'", f"autoplay {want}")
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    mode = driver.execute_script("return document.body.dataset.autoplay")
    assert mode == want, f"autoplay {mode} during the axe run, not {want}"
    where = f"{'RTL' if rtl else 'LTR'}, {want}"
    assert not results["violations"], f"axe ({where}): " + axe.report(results["violations"])
    print(f"page: axe-core {results['testEngine']['version']}: no violations ({where}; "
          f"{len(results['passes'])} rules passed, {len(results['incomplete'])} to review: "
          f"{', '.join(r['id'] for r in results['incomplete']) or 'none'})")
    return results


def check_structure(driver, rtl):
    """The APG carousel's markup: the region, the rotation button first in
    reading order and then previous and next, slides labelled "N of M"."""
    region = driver.find_element(By.ID, "region")
    assert region.get_attribute("aria-roledescription") == "carousel" and region.get_attribute("aria-label")
    order = driver.execute_script(
        "return Array.from(document.getElementById('region').querySelectorAll('button, [tabindex]'))"
        ".filter(e => e.tabIndex >= 0).map(e => e.id || e.getAttribute('aria-label'))")
    assert order[:3] == ["rotation", "previous", "next"], f"rotation first, then previous and next: {order}"
    count = driver.execute_script("return carouselPage.state.count")
    slide = driver.find_element(By.CSS_SELECTOR, "#track .card[data-index='0']")
    assert slide.get_attribute("role") == "group" and slide.get_attribute("aria-roledescription") == "slide"
    name = driver.execute_script("return carouselPage.state.stores[0].name")
    assert slide.get_attribute("aria-label") == f"1 of {count}: {name}", slide.get_attribute("aria-label")
    assert driver.execute_script("return document.documentElement.dir") == ("rtl" if rtl else "")
    # Card 0 rests at the start edge's side: the left in LTR, the right in
    # RTL, where card 1 peeks in on its left.
    x0, x1 = driver.execute_script(
        "return [0, 1].map(i => document.querySelector(`#track .card[data-index='${i}']`).getBoundingClientRect().x)")
    assert (x1 < x0) if rtl else (x1 > x0), f"card 1 at x={x1} lies {'left' if rtl else 'right'} of card 0 at x={x0}"


def check_keyboard(driver, url, rtl):
    """Keyboard only: Tab from the rotation button to the current slide,
    then the arrow keys page (mirrored in RTL) and the session's marker
    and camera follow; the previous and next buttons page too."""
    # Stopped, so that no turn races the keys (autoplay has its own check).
    open_page(driver, url, "?autoplay=stop" + ("&dir=rtl" if rtl else ""))
    check_structure(driver, rtl)
    driver.execute_script("document.getElementById('rotation').focus()")
    keys = ActionChains(driver)
    for _ in range(3):
        keys.send_keys(Keys.TAB)
    keys.perform()
    focused = lambda: driver.execute_script(
        "const e = document.activeElement; return e.classList.contains('card') ? Number(e.dataset.index) : e.id || e.tagName")
    assert focused() == 0, f"three Tabs from the rotation button reach slide 0: {focused()}"
    assert autoplay(driver)["reasons"] == ["focus"], autoplay(driver)
    assert attr(driver, "#track", "aria-live") == "polite", "a stopped carousel's slides are a polite live region"
    forward, backward = (Keys.ARROW_LEFT, Keys.ARROW_RIGHT) if rtl else (Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
    started = time.monotonic()
    ActionChains(driver).send_keys(forward).perform()
    wait(driver, f"Math.abs(carouselPage.state.offset - {PAGE}) < 1", "the cards to rest on card 1")
    assert focused() == 1, f"focus follows to slide 1: {focused()}"
    wait(driver, "document.body.dataset.selected === '1' && document.body.dataset.cameraIndex === '1'",
         "the marker and the camera to follow the key")
    key_name = "ArrowLeft" if rtl else "ArrowRight"
    print(f"page ({'RTL' if rtl else 'LTR'}): {key_name} paged to card 1, marker and camera followed "
          f"{time.monotonic() - started:.2f} s later")
    if rtl:
        # The web's scrollLeft in RTL is negative (CSSOM View, Chromium); the
        # session got the engine's offset, maxOffset − logical.
        scroll_left = driver.execute_script("return carouselPage.state.scrollLeft")
        assert abs(scroll_left + PAGE) < 1, f"scrollLeft −{PAGE} on card 1 in RTL: {scroll_left}"
    ActionChains(driver).send_keys(forward).send_keys(forward).perform()
    wait(driver, "document.body.dataset.selected === '3' && document.body.dataset.cameraIndex === '3'", "two more pages")
    assert focused() == 3
    ActionChains(driver).send_keys(backward).perform()
    wait(driver, "document.body.dataset.selected === '2' && document.body.dataset.cameraIndex === '2'", "a page back")
    ActionChains(driver).send_keys(Keys.HOME).perform()
    wait(driver, "document.body.dataset.selected === '0' && carouselPage.state.offset === 0", "Home: the first card")
    ActionChains(driver).send_keys(backward).perform()   # at the start nothing moves
    time.sleep(0.4)
    assert driver.execute_script("return carouselPage.state.offset") == 0, "no page before the first"
    assert focused() == 0
    # The next button, pressed from the keyboard: Shift+Tab twice from the slide.
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert focused() == "next", focused()
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(driver, "document.body.dataset.selected === '1' && document.body.dataset.cameraIndex === '1'", "the next button")
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).send_keys(Keys.SPACE).perform()
    assert focused() == "previous", focused()
    wait(driver, "document.body.dataset.selected === '0' && document.body.dataset.cameraIndex === '0'", "the previous button")
    assert attr(driver, "#previous", "aria-disabled") == "true" and attr(driver, "#next", "aria-disabled") == "false"
    print(f"page ({'RTL' if rtl else 'LTR'}): keyboard paging both ways, Home, the ends, previous and next buttons")


def check_rtl_pointer(driver, url, screenshot):
    """Right to left with the mouse: a drag to the RIGHT reveals the next
    card (it lies to the left); a marker click scrolls the cards to its
    store, the session's scroll command read in the engine's right-to-left
    offsets (card 0 at maxOffset) and drawn at the web's negative
    scrollLeft."""
    open_page(driver, url, "?autoplay=stop&dir=rtl")
    carousel = driver.find_element(By.ID, "carousel")
    actions = ActionChains(driver, duration=16)
    actions.move_to_element(carousel).click_and_hold()
    for _ in range(10):
        actions.move_by_offset(20, 0)
    actions.release().perform()
    wait(driver, "document.body.dataset.selected === '1' && document.body.dataset.cameraIndex === '1'",
         "the marker and camera to follow a rightward drag in RTL")
    wait(driver, f"Math.abs(carouselPage.state.offset - {PAGE}) < 1", "the cards to rest on card 1")
    # Card 1 now sits where card 0 sat: the strip's centre.
    middle = driver.execute_script(
        "const s = document.getElementById('carousel').getBoundingClientRect(),"
        " c = document.querySelector(\"#track .card[data-index='1']\").getBoundingClientRect();"
        "return (c.left + c.right) / 2 - (s.left + s.right) / 2")
    assert abs(middle) < 2, f"card 1 centred in the strip: {middle} px off"
    driver.execute_script("document.getElementById('map').scrollIntoView({block: 'start'})")
    dx, dy = driver.execute_script(
        "const c = document.getElementById('map'), r = c.getBoundingClientRect(), p = carouselPage.markerPoint(5);"
        "return [c.clientLeft + p.x * c.clientWidth / c.width - r.width / 2, c.clientTop + p.y * c.clientHeight / c.height - r.height / 2]")
    ActionChains(driver).move_to_element_with_offset(driver.find_element(By.ID, "map"), round(dx), round(dy)).click().perform()
    wait(driver, "document.body.dataset.selected === '5'", "the tapped marker in RTL")
    wait(driver, f"Math.abs(carouselPage.state.offset - {5 * PAGE}) < 1 && carouselPage.state.index === 5",
         "the cards to scroll to store 5 in RTL")
    time.sleep(0.6)  # past the debounce: the scroll's own frames must not move the map again
    assert driver.execute_script("return carouselPage.state.camera.index") == 5
    assert driver.execute_script("return carouselPage.state.scrollLeft") == -5 * PAGE
    # A second screenshot beside the first, for a look at the mirrored strip.
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(re.sub(r"(\.png)?$", "-rtl.png", screenshot, count=1))
    print("page (RTL): a rightward drag paged to card 1; a marker click scrolled the cards to store 5 (scrollLeft "
          f"{-5 * PAGE})")


def check_autoplay(driver, url, rtl):
    """Autoplay at a short interval: it turns one card per interval (the
    marker follows); the rotation button stops it (and the live region
    turns polite), hover and focus no longer restart it, only play does;
    hover and focus pause it and it resumes when they end."""
    interval = 800
    open_page(driver, url, f"?autoplay={interval}" + ("&dir=rtl" if rtl else ""))
    rotation = driver.find_element(By.ID, "rotation")
    assert attr(driver, "#rotation", "aria-label") == STOP_LABEL
    assert attr(driver, "#track", "aria-live") == "off", "rotating: the live region is off"
    assert autoplay(driver)["playing"]
    # Turns may have begun while the page loaded: count from where it is.
    first = driver.execute_script("return carouselPage.state.index")
    wait(driver, f"carouselPage.state.index === {first + 1}", "autoplay's turn", timeout=interval / 1000 * 4)
    wait(driver, f"carouselPage.state.index === {first + 2}", "autoplay's next turn", timeout=interval / 1000 * 4)
    # The session follows the turns as it follows a swipe (the selected
    # marker and the camera move on).
    wait(driver, f"Number(document.body.dataset.selected) > {first} && Number(document.body.dataset.cameraIndex) > {first}",
         "the marker and camera to follow autoplay")

    # Stop: the label and the live region change, nothing turns.
    rotation.click()
    assert attr(driver, "#rotation", "aria-label") == START_LABEL
    assert attr(driver, "#track", "aria-live") == "polite", "stopped: the live region is polite"
    assert driver.execute_script("return document.body.dataset.autoplay") == "stopped"
    index = driver.execute_script("return carouselPage.state.index")
    # Hover and focus come and go: a user's stop outlasts them.
    region = driver.find_element(By.ID, "track")
    ActionChains(driver).move_to_element(region).perform()
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "header h1")).perform()
    driver.execute_script("document.querySelector('#track .card[tabindex=\"0\"]').focus({preventScroll: true})")
    driver.execute_script("document.getElementById('query').focus()")
    time.sleep(interval / 1000 * 2.5)
    assert driver.execute_script("return carouselPage.state.index") == index, "stopped: no turn, after hover and focus"
    assert driver.execute_script("return document.body.dataset.autoplay") == "stopped"

    # Play: rotation again, the live region off.
    rotation.click()
    assert attr(driver, "#rotation", "aria-label") == STOP_LABEL and attr(driver, "#track", "aria-live") == "off"
    wait(driver, f"carouselPage.state.index === {index + 1}", "a turn after play", timeout=interval / 1000 * 4)

    # Hover pauses; leaving resumes, the timer from zero.
    ActionChains(driver).move_to_element(region).perform()
    wait(driver, "document.body.dataset.autoplay === 'paused'", "hover to pause")
    assert autoplay(driver)["reasons"] == ["hover"] and attr(driver, "#track", "aria-live") == "polite"
    index = driver.execute_script("return carouselPage.state.index")
    time.sleep(interval / 1000 * 2.5)
    assert driver.execute_script("return carouselPage.state.index") == index, "no turn while hovered"
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "header h1")).perform()
    resumed = time.monotonic()
    wait(driver, "document.body.dataset.autoplay === 'playing'", "leaving to resume")
    wait(driver, f"carouselPage.state.index === {index + 1}", "a turn after the hover", timeout=interval / 1000 * 4)
    took = time.monotonic() - resumed
    assert took > interval / 1000 * 0.6, f"the timer restarts from zero on resume: a turn {took:.2f} s after"

    # Hovering the rotation button is not a pause (the APG example).
    ActionChains(driver).move_to_element(rotation).perform()
    time.sleep(0.1)
    assert driver.execute_script("return document.body.dataset.autoplay") == "playing", autoplay(driver)
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, "header h1")).perform()

    # Keyboard focus on a slide pauses; focus elsewhere resumes.
    driver.execute_script("document.querySelector('#track .card[tabindex=\"0\"]').focus({preventScroll: true})")
    wait(driver, "document.body.dataset.autoplay === 'paused'", "focus to pause")
    assert autoplay(driver)["reasons"] == ["focus"], autoplay(driver)
    index = driver.execute_script("return carouselPage.state.index")
    time.sleep(interval / 1000 * 2.5)
    assert driver.execute_script("return carouselPage.state.index") == index, "no turn while focused"
    driver.execute_script("document.getElementById('query').focus()")
    wait(driver, "document.body.dataset.autoplay === 'playing'", "focus leaving to resume")
    wait(driver, f"carouselPage.state.index === {index + 1}", "a turn after the focus", timeout=interval / 1000 * 4)
    # At the last card the next turn wraps to the first: End from the
    # keyboard (focus pauses), then focus leaves and rotation resumes.
    driver.execute_script("document.querySelector('#track .card[tabindex=\"0\"]').focus({preventScroll: true})")
    ActionChains(driver).send_keys(Keys.END).perform()
    last = driver.execute_script("return carouselPage.state.count - 1")
    wait(driver, f"carouselPage.state.index === {last} && Math.abs(carouselPage.state.offset - {last * PAGE}) < 1", "End")
    driver.execute_script("document.getElementById('query').focus()")
    wait(driver, "carouselPage.state.index === 0 && carouselPage.state.offset === 0", "autoplay to wrap to the first card",
         timeout=interval / 1000 * 4)
    wait(driver, "document.body.dataset.selected === '0' && document.body.dataset.cameraIndex === '0'",
         "the marker and camera to follow the wrap")
    turns = autoplay(driver)["turns"]
    print(f"page ({'RTL' if rtl else 'LTR'}): autoplay every {interval} ms ({turns} turns), stop stays stopped "
          f"through hover and focus, play restarts; hover and focus pause, resume from zero; wraps at the end")


def check_reduced_motion(driver, url):
    """Under prefers-reduced-motion: reduce (Chromium's emulation through
    the DevTools protocol) the carousel starts stopped; a page jumps
    rather than animating; play still starts it."""
    interval = 800
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        open_page(driver, url, f"?autoplay={interval}")
        assert driver.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert driver.execute_script("return document.body.dataset.autoplay") == "stopped"
        assert attr(driver, "#rotation", "aria-label") == START_LABEL and attr(driver, "#track", "aria-live") == "polite"
        time.sleep(interval / 1000 * 2.5)
        assert driver.execute_script("return carouselPage.state.index") == 0, "no turn under reduced motion"
        # A page jumps: the offset is at card 1 in the frame of the key press.
        driver.execute_script("document.querySelector('#track .card[tabindex=\"0\"]').focus({preventScroll: true})")
        offset = driver.execute_script(
            "document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));"
            "return carouselPage.state.offset")
        assert offset == PAGE and driver.execute_script("return document.body.dataset.lastScroll") == "jump", offset
        wait(driver, "document.body.dataset.selected === '1' && document.body.dataset.cameraIndex === '1'",
             "the marker and camera to follow the jump")
        driver.execute_script("document.getElementById('query').focus()")
        driver.find_element(By.ID, "rotation").click()
        assert driver.execute_script("return document.body.dataset.autoplay") == "playing"
        wait(driver, "carouselPage.state.index === 2", "play to turn under reduced motion", timeout=interval / 1000 * 4)
        assert driver.execute_script("return document.body.dataset.lastScroll") == "jump"
        print("page: prefers-reduced-motion: starts stopped, pages jump, play still plays")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def main(url, screenshot):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    # Chromium's network log: every request, WebSocket included.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    began = time.monotonic()
    try:
        # Autoplay stopped: the drag, the marker click and the searches
        # below expect the cards to move for them only.
        driver.get(url + "?autoplay=stop")
        wait(driver, "document.body.dataset.ready === 'true'", "the session to open")
        wait(driver, "document.body.dataset.selected === '0'", "the initial marker")
        assert driver.execute_script("return carouselPage.state.camera.index") == 0
        check_markers(driver, selected=0)
        check_basemap(driver)
        check_korean(driver)

        # Drag the cards one page on, as a finger would: left by 200 px.
        carousel = driver.find_element(By.ID, "carousel")
        actions = ActionChains(driver, duration=16)
        actions.move_to_element(carousel).click_and_hold()
        for _ in range(10):
            actions.move_by_offset(-20, 0)
        actions.release().perform()
        started = time.monotonic()

        wait(driver, "document.body.dataset.selected === '1'", "the marker to follow the drag")
        wait(driver, "document.body.dataset.cameraIndex === '1'", "the camera to follow the drag")
        print(f"page: marker and camera on store 1 {time.monotonic() - started:.2f} s after the release")
        offset = driver.execute_script("return carouselPage.state.offset")
        assert abs(offset - PAGE) < 1, f"the cards rest on card 1 (offset {offset})"
        x, y = driver.execute_script("const p = carouselPage.markerPoint(1); return [Math.round(p.x), Math.round(p.y)]")
        assert pixel(driver, x, y) == SELECTED_RED, f"store 1 is drawn selected at {x},{y}: {pixel(driver, x, y)}"
        camera = driver.execute_script("return carouselPage.state.camera")
        assert camera["storeId"] == driver.execute_script("return carouselPage.state.stores[1].id")
        check_markers(driver, selected=1)

        # Click store 5's marker: the map selects it at once and the cards scroll to it.
        # The marker's point in CSS pixels from the canvas's centre (W3C actions'
        # origin is the centre of the element's part in view: scroll it all in).
        driver.execute_script("document.getElementById('map').scrollIntoView({block: 'start'})")
        dx, dy = driver.execute_script(
            "const c = document.getElementById('map'), r = c.getBoundingClientRect(), p = carouselPage.markerPoint(5);"
            "return [c.clientLeft + p.x * c.clientWidth / c.width - r.width / 2, c.clientTop + p.y * c.clientHeight / c.height - r.height / 2]")
        canvas = driver.find_element(By.ID, "map")
        ActionChains(driver).move_to_element_with_offset(canvas, round(dx), round(dy)).click().perform()
        try:
            wait(driver, "document.body.dataset.selected === '5'", "the tapped marker")
        except AssertionError:
            driver.save_screenshot(screenshot)
            print("selected:", driver.execute_script("return document.body.dataset.selected"), "offset", dx, dy)
            print(driver.execute_script("return document.getElementById('log').textContent.slice(0, 800)"))
            print(driver.get_log("browser") if hasattr(driver, "get_log") else "")
            raise
        wait(driver, f"Math.abs(carouselPage.state.offset - {5 * PAGE}) < 1", "the cards to scroll to store 5")
        time.sleep(0.6)  # past the debounce: the scroll's own frames must not move the map again
        assert driver.execute_script("return carouselPage.state.camera.index") == 5
        print("page: a marker click scrolled the cards to store 5")

        # Search: the cards and the markers become the results; the session
        # keeps store 5 in focus if it is one, else focuses the first.
        listed = driver.execute_script("return carouselPage.state.count")
        box = driver.find_element(By.ID, "query")
        box.send_keys("roastery")
        box.submit()
        wait(driver, "document.body.dataset.results > 0", "the search's results")
        found = int(driver.execute_script("return document.body.dataset.results"))
        assert driver.execute_script("return carouselPage.state.count") == found
        names = driver.execute_script("return carouselPage.state.stores.map(s => s.category + ' ' + s.name)")
        assert all("roastery" in name.lower() for name in names), names
        wait(driver, f"document.body.dataset.selected < {found}", "a result to be selected")
        print(f"page: 'roastery' gave {found} results of {listed}")

        # Search this area: what the phone's map shows around the focused result.
        driver.find_element(By.ID, "area").click()
        wait(driver, "carouselPage.state.messages > 0 && document.getElementById('status').textContent.includes('results')",
             "the area's results")
        # The whole list again.
        driver.find_element(By.ID, "clear").click()
        wait(driver, f"carouselPage.state.count === {listed} && document.body.dataset.results === ''", "the whole list")
        print("page: search this area, then the whole list again")
        check_requests(driver, url)
        # The screenshot: the list again, a store selected, past the debounce.
        wait(driver, "carouselPage.state.markers && carouselPage.state.markers.some(m => m.type === 'store' && "
                     "m.index === carouselPage.state.selected)", "the selected store's marker")
        wait(driver, f"Math.abs(carouselPage.state.offset - Math.round(carouselPage.state.offset / {PAGE}) * {PAGE}) < 1 && "
                     f"Math.round(carouselPage.state.offset / {PAGE}) === carouselPage.state.selected", "the cards to rest on it")
        # Autoplay on (its button shows pause), taken before its first turn.
        driver.find_element(By.ID, "rotation").click()
        assert driver.execute_script("return document.body.dataset.autoplay") == "playing"
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(screenshot)
        print(f"page: screenshot {screenshot}")

        for rtl in (False, True):
            check_keyboard(driver, url, rtl)
        check_rtl_pointer(driver, url, screenshot)
        for rtl in (False, True):
            check_autoplay(driver, url, rtl)
        check_reduced_motion(driver, url)
        for rtl in (False, True):
            for playing in (True, False):
                check_axe(driver, url, rtl, playing)
        print(f"page: every check passed in {time.monotonic() - began:.0f} s")
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
