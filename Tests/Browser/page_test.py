"""The page of `carousel serve` in a real browser (headless Chromium through
Selenium): load `/`, drag the carousel one card on, and check that the
selected marker and the drawn camera follow; click a marker and check that
the cards scroll to it. Saves a screenshot.

    python3 Tests/Browser/page_test.py URL SCREENSHOT.png
"""
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service

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


def check_markers(driver, selected):
    """The server's clusters as drawn: every store counted once, the
    selected one on its own, and at least one cluster circle, filled where
    its centre is (its count's white digits aside, so a pixel just below)."""
    wait(driver, "carouselPage.state.markers && carouselPage.state.markers.some("
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
    print(f"page: {len(clusters)} clusters and {len(markers) - len(clusters)} stores at zoom "
          f"{driver.execute_script('return carouselPage.overviewZoom()'):.2f}, store {selected} on its own")


def main(url, screenshot):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        driver.get(url)
        wait(driver, "document.body.dataset.ready === 'true'", "the session to open")
        wait(driver, "document.body.dataset.selected === '0'", "the initial marker")
        assert driver.execute_script("return carouselPage.state.camera.index") == 0
        check_markers(driver, selected=0)

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
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(screenshot)
        print(f"page: screenshot {screenshot}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
