//! The page of `ludus serve` driven in a real browser (Chromium, through its WebDriver): games of
//! Oware and Backgammon played by clicking on the board, the computer's answer, undo, a hint, a
//! record replayed step by step, a broken rules file's located errors, two people playing one
//! game from two browsers by a link while a third watches (one of them through a connection
//! that drops), and the board with every control of a turn inside a laptop's window and a
//! phone's screen. A screenshot of each board is kept in `target/tmp/browser/`. Needs Debian's
//! `chromium` and `chromium-driver` (`.ci/run` installs them); skipped, saying so, where they are
//! missing.

mod serve_common;
mod tools_common;

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use serve_common::Served;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// ChromeDriver on a free port, stopped when dropped, and the Chromium it drives.
struct Driver {
    child: Child,
    port: u16,
    chromium: PathBuf,
}

impl Driver {
    /// `None` (the test skipped) where Chromium or ChromeDriver is not installed.
    fn start() -> Option<Driver> {
        const TEST: &str = "the browser test";
        let package = "chromium chromium-driver";
        let chromium = tools_common::optional_tool(
            TEST,
            "Chromium",
            &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
            package,
        )?;
        let binary = tools_common::optional_tool(
            TEST,
            "ChromeDriver",
            &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"],
            package,
        )?;
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Driver {
            child,
            port,
            chromium,
        })
    }

    async fn browser(&self) -> Client {
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": self.chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,1300"],
            }
        });
        // The WebDriver speaks plain HTTP on loopback: no TLS.
        ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.as_object().unwrap().clone())
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the JavaScript expression `condition` is true on the page.
async fn wait_for(c: &Client, condition: &str) {
    let start = Instant::now();
    loop {
        let v = c
            .execute(&format!("return Boolean({condition});"), vec![])
            .await
            .expect("run a script");
        if v == Value::Bool(true) {
            return;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let status = text(c, "#status").await;
            let message = text(c, "#message").await;
            let error = text(c, "#setup-error").await;
            panic!("waited in vain for {condition} (status: {status}; message: {message}; setup: {error})");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the move list has `steps` lines and no request is under way.
async fn wait_steps(c: &Client, steps: usize) {
    let condition = format!(
        "document.querySelectorAll('#log li').length >= {steps} && document.body.dataset.busy === '0'"
    );
    wait_for(c, &condition).await;
}

/// Waits until the status line starts with `start` (or, `!` first, does not).
async fn wait_status(c: &Client, start: &str) {
    let (not, start) = match start.strip_prefix('!') {
        Some(rest) => ("!", rest),
        None => ("", start),
    };
    let condition =
        format!("{not}document.getElementById('status').textContent.startsWith('{start}')");
    wait_for(c, &condition).await;
}

async fn present(c: &Client, css: &str) -> bool {
    c.find(Locator::Css(css)).await.is_ok()
}

async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

async fn set_value(c: &Client, css: &str, value: &str) {
    let e = c
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    e.clear().await.unwrap();
    e.send_keys(value).await.unwrap();
}

async fn choose(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("select {value} in {css}: {e}"));
}

/// Keeps a screenshot of the page as a test artifact.
async fn screenshot(c: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// The page's record link: `/api/games/{id}/record`.
async fn record_link(c: &Client) -> String {
    let link = c.find(Locator::Css("#download")).await.unwrap();
    link.attr("href").await.unwrap().expect("the record link")
}

/// The body of `GET url`, fetched beside the browser.
async fn fetch(url: String) -> String {
    tokio::task::spawn_blocking(move || ureq::get(&url).call().unwrap().into_string().unwrap())
        .await
        .unwrap()
}

/// The served game the page shows, through the API.
async fn served(c: &Client, s: &Served) -> Value {
    let game = record_link(c).await.trim_end_matches("/record").to_string();
    serde_json::from_str(&fetch(s.url(&game)).await).expect("a view")
}

async fn set_up(c: &Client, s: &Served, rules: &str, computer: &str) {
    c.goto(&s.url("/")).await.unwrap();
    wait_for(
        c,
        &format!("document.querySelector('#rules-select option[value=\"{rules}\"]')"),
    )
    .await;
    choose(c, "#rules-select", rules).await;
    choose(c, "#seat0-kind", "human").await;
    choose(c, "#seat1-kind", "computer").await;
    set_value(c, "#seat1-spec", computer).await;
    choose(c, "#first", "0").await;
    set_value(c, "#seed", "1").await;
    click(c, "#start").await;
    wait_for(c, "!document.getElementById('play').hidden").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oware_and_backgammon_are_played_by_clicking_and_a_broken_rules_file_is_located() {
    let s = Served::start();
    let Some(driver) = Driver::start() else {
        return;
    };
    let c = driver.browser().await;

    // Oware: click South's pit 3; the computer answers; undo takes both back.
    set_up(&c, &s, "oware", "greedy").await;
    wait_for(
        &c,
        "document.querySelector('#board .spot.movable[data-side=\"0\"][data-pit=\"3\"]')",
    )
    .await;
    // Hovering shows where the four stones of pit 3 go.
    c.execute(
        "document.querySelector('#board .spot[data-side=\"0\"][data-pit=\"3\"]').dispatchEvent(new MouseEvent('mouseenter'));",
        vec![],
    )
    .await
    .unwrap();
    wait_for(
        &c,
        "document.querySelectorAll('#board .spot.lands').length === 4",
    )
    .await;
    for (side, pit) in [(0, 4), (0, 5), (0, 6), (1, 1)] {
        let css = format!("#board .spot.lands[data-side=\"{side}\"][data-pit=\"{pit}\"]");
        assert!(present(&c, &css).await, "{css}");
    }
    screenshot(&c, "oware-where-pit-3-goes").await;
    click(&c, "#board .spot[data-side=\"0\"][data-pit=\"3\"]").await;
    wait_steps(&c, 3).await;
    let v = served(&c, &s).await;
    assert_eq!(v["log"][1]["text"], "South plays 3");
    assert_eq!(v["log"][2]["player"], 1);
    assert_eq!(v["state"]["to_move"], 0);
    assert!(text(&c, "#status").await.contains("South to move"));
    // The pits North's answer changed are outlined.
    let changed = c
        .execute(
            "return document.querySelectorAll('#board .spot.changed').length;",
            vec![],
        )
        .await
        .unwrap();
    assert!(changed.as_u64().unwrap() >= 4, "{changed}");
    screenshot(&c, "oware").await;
    click(&c, "#undo").await;
    wait_for(
        &c,
        "document.querySelector('#log li:last-child').textContent === '2 steps taken back'",
    )
    .await;
    let v = served(&c, &s).await;
    assert_eq!(
        v["state"]["pits"],
        json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]])
    );
    // Review: the step after South's move, then back to the game.
    click(&c, "#log li:nth-child(2)").await;
    wait_status(&c, "Reviewing step 1").await;
    click(&c, "#last-step").await;
    wait_status(&c, "!Reviewing").await;
    // A hint, clicked, is played; the computer answers it.
    click(&c, "#hint").await;
    wait_for(&c, "document.querySelector('#hints li')").await;
    let hinted = text(&c, "#hints li").await;
    click(&c, "#hints li").await;
    wait_steps(&c, 6).await;
    let v = served(&c, &s).await;
    let pit = hinted.split_whitespace().next().unwrap();
    assert_eq!(
        v["log"][4]["text"],
        format!("South plays {pit}"),
        "{}",
        v["log"]
    );

    // The record, downloaded, replays step by step.
    let record = fetch(s.url(&record_link(&c).await)).await;
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-oware.jsonl");
    std::fs::write(&file, &record).unwrap();
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "document.querySelector('#rules-select option')").await;
    click(&c, "#replay-box summary").await;
    c.find(Locator::Css("#record-file"))
        .await
        .unwrap()
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
    click(&c, "#replay").await;
    wait_status(&c, "Reviewing step 0 of 5").await;
    click(&c, "#next-step").await;
    wait_status(&c, "Reviewing step 1 of 5").await;
    assert!(text(&c, "#log li.here").await.contains("South plays 3"));
    click(&c, "#last-step").await;
    wait_status(&c, "!Reviewing").await;

    // Backgammon: dice typed from real dice, then 13/7 8/7 by clicking points.
    set_up(&c, &s, "backgammon", "greedy").await;
    wait_for(&c, "!document.getElementById('roll-typed').disabled").await;
    set_value(&c, "#dice-typed", "6-1").await;
    click(&c, "#roll-typed").await;
    wait_for(
        &c,
        "document.querySelector('#board .spot.movable[data-p0=\"13\"]')",
    )
    .await;
    // Picking the checkers on 13 lights up where they can go with 6-1.
    click(&c, "#board .spot[data-p0=\"13\"]").await;
    wait_for(
        &c,
        "document.querySelector('#board .spot.from[data-p0=\"13\"]')",
    )
    .await;
    for point in ["7", "6"] {
        let css = format!("#board .spot.to[data-p0=\"{point}\"]");
        assert!(present(&c, &css).await, "{css}");
    }
    // Not 12: Black's five checkers hold it.
    let blocked = "#board .spot.to[data-p0=\"12\"]";
    assert!(!present(&c, blocked).await, "{blocked}");
    screenshot(&c, "backgammon-from-13").await;
    click(&c, "#board .spot[data-p0=\"13\"]").await;
    for point in ["13", "7", "8", "7"] {
        click(&c, &format!("#board .spot[data-p0=\"{point}\"]")).await;
    }
    // The computer rolls and moves in answer.
    wait_steps(&c, 5).await;
    let v = served(&c, &s).await;
    assert_eq!(v["log"][2]["text"], "White plays 13/7 8/7", "{}", v["log"]);
    assert!(
        v["log"][3]["text"]
            .as_str()
            .unwrap()
            .starts_with("Black rolls"),
        "{}",
        v["log"]
    );
    assert_eq!(
        (v["awaiting"].as_str(), v["state"]["to_move"].as_u64()),
        (Some("roll"), Some(0))
    );
    screenshot(&c, "backgammon").await;
    click(&c, "#undo").await;
    wait_for(
        &c,
        "document.querySelector('#log li:last-child').textContent === '3 steps taken back'",
    )
    .await;
    let v = served(&c, &s).await;
    assert_eq!(v["state"]["dice"], json!([6, 1]));
    assert_eq!(v["state"]["points"][0][12], 5);

    // A broken rules file: the error located at its line and column, no game started.
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "document.querySelector('#rules-select option')").await;
    click(&c, "#own-rules summary").await;
    let broken = std::fs::read_to_string("rules/kalah.toml")
        .unwrap()
        .replacen("pits = 6", "pits = 99", 1);
    let line = broken
        .lines()
        .position(|l| l.contains("pits = 99"))
        .unwrap()
        + 1;
    c.execute(
        "document.getElementById('rules-text').value = arguments[0];",
        vec![json!(broken)],
    )
    .await
    .unwrap();
    click(&c, "#start").await;
    wait_for(&c, "document.querySelector('#diagnostics li.error')").await;
    let first = text(&c, "#diagnostics li.error").await;
    assert!(
        first.starts_with(&format!("line {line}, column 8: error:")),
        "{first}"
    );
    let setup = c.find(Locator::Css("#setup")).await.unwrap();
    assert!(
        setup.attr("hidden").await.unwrap().is_none(),
        "no game started"
    );
    screenshot(&c, "broken-rules").await;

    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opening_throw_played_with_the_opponents_checkers_is_clicked_on_their_points() {
    let s = Served::start();
    let Some(driver) = Driver::start() else {
        return;
    };
    let c = driver.browser().await;
    // Julbahar, uploaded: White starts and plays 6-4 with Black's checkers, whose steps are in
    // Black's numbering; the page matches clicks to them by Black's point numbers.
    c.goto(&s.url("/")).await.unwrap();
    wait_for(&c, "document.querySelector('#rules-select option')").await;
    click(&c, "#own-rules summary").await;
    let text = std::fs::read_to_string("docs/games/julbahar.toml").unwrap();
    c.execute(
        "document.getElementById('rules-text').value = arguments[0];",
        vec![json!(text)],
    )
    .await
    .unwrap();
    choose(&c, "#seat0-kind", "human").await;
    choose(&c, "#seat1-kind", "human").await;
    choose(&c, "#first", "0").await;
    click(&c, "#start").await;
    wait_for(&c, "!document.getElementById('play').hidden").await;
    wait_for(&c, "!document.getElementById('roll-typed').disabled").await;
    set_value(&c, "#dice-typed", "6-4").await;
    click(&c, "#roll-typed").await;
    wait_status(&c, "White to move (Black").await;
    // Black's 24-point (White's 1) holds the checkers to move.
    wait_for(
        &c,
        "document.querySelector('#board .spot.movable[data-p1=\"24\"]')",
    )
    .await;
    click(&c, "#board .spot[data-p1=\"24\"]").await;
    for point in ["18", "20"] {
        let css = format!("#board .spot.to[data-p1=\"{point}\"]");
        assert!(present(&c, &css).await, "{css}");
    }
    click(&c, "#board .spot[data-p1=\"14\"]").await;
    wait_steps(&c, 3).await;
    let v = served(&c, &s).await;
    assert_eq!(v["state"]["points"][1][13], 1, "{}", v["state"]);
    assert_eq!(v["state"]["points"][0][23], 15, "{}", v["state"]);
    assert!(
        v["log"][2]["text"].as_str().unwrap().contains("24/14"),
        "{}",
        v["log"]
    );
    // Then Black rolls for its own turn.
    assert_eq!(
        (v["awaiting"].as_str(), v["state"]["to_move"].as_u64()),
        (Some("roll"), Some(1))
    );
    c.close().await.unwrap();
}

/// The value of a script's expression on the page, as a string.
async fn script_text(c: &Client, expression: &str) -> String {
    let v = c
        .execute(&format!("return String({expression});"), vec![])
        .await
        .expect("run a script");
    v.as_str().unwrap_or_default().to_string()
}

/// Waits until the page shows at least `steps` lines of moves, and says how long that took.
async fn seen_within(c: &Client, steps: usize, since: Instant) -> Duration {
    wait_for(
        c,
        &format!("document.querySelectorAll('#log li').length >= {steps}"),
    )
    .await;
    since.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_one_game_from_two_browsers_by_a_link_and_a_third_watches() {
    let s = Served::start();
    let Some(driver) = Driver::start() else {
        return;
    };
    // South begins an Oware game against a friend elsewhere.
    let south = driver.browser().await;
    south.goto(&s.url("/")).await.unwrap();
    wait_for(
        &south,
        "document.querySelector('#rules-select option[value=\"oware\"]')",
    )
    .await;
    choose(&south, "#rules-select", "oware").await;
    choose(&south, "#seat0-kind", "human").await;
    choose(&south, "#seat1-kind", "friend").await;
    choose(&south, "#first", "0").await;
    set_value(&south, "#seed", "1").await;
    click(&south, "#start").await;
    wait_for(
        &south,
        "document.getElementById('friend-link').value.includes('#game=')",
    )
    .await;
    let link = script_text(&south, "document.getElementById('friend-link').value").await;
    let watch = script_text(&south, "document.getElementById('watch-link').value").await;
    assert!(link.starts_with(&s.base) && watch.starts_with(&s.base) && link != watch);
    screenshot(&south, "friend-south-begins").await;

    // North opens the link: their seat, waiting for South.
    // North's connection goes through a relay that can drop it, as a network does.
    let (relay, cut) = relay(s.address().parse().unwrap()).await;
    let north = driver.browser().await;
    north
        .goto(&link.replace(&s.base, &format!("http://127.0.0.1:{relay}")))
        .await
        .unwrap();
    wait_for(&north, "!document.getElementById('play').hidden").await;
    wait_status(&north, "South to move (waiting for South").await;
    assert!(!present(&north, "#board .spot.movable").await);
    assert!(
        script_text(&north, "document.getElementById('links').hidden").await == "true",
        "a friend's page gives no links"
    );

    // South sows pit 3: North's page shows it within a second, and North may move.
    click(&south, "#board .spot[data-side=\"0\"][data-pit=\"3\"]").await;
    let took = seen_within(&north, 2, Instant::now()).await;
    assert!(took < Duration::from_secs(1), "{took:?}");
    wait_for(
        &north,
        "document.querySelector('#board .spot.movable[data-side=\"1\"][data-pit=\"1\"]')",
    )
    .await;
    wait_status(&south, "North to move (waiting for North").await;

    // A spectator follows, and can do nothing.
    let watcher = driver.browser().await;
    watcher.goto(&watch).await.unwrap();
    wait_status(&watcher, "Watching: North to move").await;
    assert!(!present(&watcher, "#board .spot.movable").await);
    for control in ["#undo", "#hint", "#play-typed"] {
        let disabled = script_text(
            &watcher,
            &format!("document.querySelector('{control}').disabled"),
        )
        .await;
        assert_eq!(disabled, "true", "{control}");
    }

    // North answers by clicking; South and the spectator see it within a second.
    let since = Instant::now();
    click(&north, "#board .spot[data-side=\"1\"][data-pit=\"1\"]").await;
    for page in [&south, &watcher] {
        let took = seen_within(page, 3, since).await;
        assert!(took < Duration::from_secs(1), "{took:?}");
    }
    let v = served(&south, &s).await;
    assert_eq!(v["log"][2]["text"], "North plays 1");
    screenshot(&north, "friend-north").await;
    screenshot(&watcher, "friend-watcher").await;

    // North reloads: the game resumes where it is, and goes on.
    north.refresh().await.unwrap();
    wait_for(&north, "!document.getElementById('play').hidden").await;
    wait_steps(&north, 3).await;
    wait_status(&north, "South to move (waiting for South").await;
    // The network drops North's connections; the page reconnects by itself and still sees
    // South's next move, played by the keyboard (a pit's number sows it).
    cut.send_modify(|n| *n += 1);
    // (Once North's move has been played out on South's board: a key pressed while a move is
    // shown ends the showing, and plays nothing.)
    wait_steps(&south, 3).await;
    south
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("4")
        .await
        .unwrap();
    let took = seen_within(&north, 4, Instant::now()).await;
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert_eq!(served(&south, &s).await["log"][3]["text"], "South plays 4");
    wait_for(
        &north,
        "document.querySelector('#board .spot.movable[data-side=\"1\"]')",
    )
    .await;

    // A link nobody was given opens no game.
    watcher
        .goto(&s.url(&format!("/#game={}", "0".repeat(32))))
        .await
        .unwrap();
    wait_for(
        &watcher,
        "document.getElementById('setup-error').textContent.includes('no game')",
    )
    .await;

    for c in [south, north, watcher] {
        c.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sowing_is_played_out_stone_by_stone_and_a_click_skips_it() {
    let s = Served::start();
    let Some(driver) = Driver::start() else {
        return;
    };
    let c = driver.browser().await;
    set_up(&c, &s, "oware", "greedy").await;
    choose(&c, "#pace", "450").await;
    wait_for(&c, "document.querySelector('#board .spot.movable')").await;
    // South sows pit 3's four stones: the board shows them lifted, then dropped one by one.
    click(&c, "#board .spot[data-side=\"0\"][data-pit=\"3\"]").await;
    wait_for(&c, "!document.getElementById('skip').hidden").await;
    let mut hands = Vec::new();
    let start = Instant::now();
    loop {
        let words = text(&c, "#last-words").await;
        if !words.starts_with("South plays 3 (") {
            break;
        }
        if hands.last() != Some(&words) {
            hands.push(words);
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{hands:?}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let said: Vec<&str> = hands
        .iter()
        .map(|w| w.trim_start_matches("South plays 3"))
        .collect();
    assert_eq!(
        said,
        [
            " (4 in hand)",
            " (3 in hand)",
            " (2 in hand)",
            " (1 in hand)"
        ]
    );
    // The computer's answer is played out too; a click on the board ends it at once.
    wait_for(
        &c,
        "document.getElementById('last-words').textContent.startsWith('North plays') && !document.getElementById('skip').hidden",
    )
    .await;
    screenshot(&c, "sowing-shown").await;
    let start = Instant::now();
    click(&c, "#board").await;
    wait_for(&c, "document.getElementById('skip').hidden").await;
    // (North sows four stones: played out, 1.8 s at this pace.)
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    wait_steps(&c, 3).await;
    wait_for(&c, "document.querySelector('#board .spot.movable')").await;
    assert!(text(&c, "#last-words")
        .await
        .starts_with("Last: North plays"));
    // In a review, a step on plays its move out as well.
    click(&c, "#prev-step").await;
    wait_for(
        &c,
        "document.body.dataset.busy === '0' && !document.getElementById('next-step').disabled",
    )
    .await;
    click(&c, "#next-step").await;
    wait_for(
        &c,
        "document.getElementById('last-words').textContent.startsWith('North plays') && !document.getElementById('skip').hidden",
    )
    .await;
    c.close().await.unwrap();
}

/// The controls of a turn that are shown but not wholly inside the window: none when the board
/// and every control fit without scrolling.
const OUTSIDE: &str = "(() => {
  const out = [];
  for (const css of ['#board svg', '#status', '#roll', '#move-text', '#play-typed', '#undo', '#hint', '#choices', '#resign', '#offer-end', '#pace']) {
    const e = document.querySelector(css);
    if (!e || e.offsetParent === null) continue;
    const r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5) {
      out.push(`${css} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
  }
  return out.length ? `${out.join('; ')} (window ${window.innerWidth}×${window.innerHeight})` : '';
})()";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_and_every_control_of_a_turn_fit_a_laptop_window_and_a_phone_screen() {
    let s = Served::start();
    let Some(driver) = Driver::start() else {
        return;
    };
    for (screen, width, height) in [("laptop", 1366, 768), ("phone", 390, 844)] {
        let c = driver.browser().await;
        c.set_window_size(width, height).await.unwrap();
        for (rules, dice) in [("oware", false), ("backgammon", true), ("uuholo", false)] {
            set_up(&c, &s, rules, "greedy").await;
            if dice {
                wait_for(&c, "!document.getElementById('roll').disabled").await;
                click(&c, "#roll").await;
            }
            wait_for(&c, "document.querySelector('#board .spot.movable')").await;
            wait_for(&c, "document.body.dataset.busy === '0'").await;
            let outside = script_text(&c, OUTSIDE).await;
            assert!(outside.is_empty(), "{rules} on a {screen}: {outside}");
            screenshot(&c, &format!("{screen}-{rules}")).await;
        }
        c.close().await.unwrap();
    }
}

/// A TCP relay on a free port of this machine to `to`; every connection through it is cut when
/// the returned sender's value changes (a network that drops).
async fn relay(to: std::net::SocketAddr) -> (u16, tokio::sync::watch::Sender<u64>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (cut, cuts) = tokio::sync::watch::channel(0u64);
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let mut cuts = cuts.clone();
            cuts.mark_unchanged();
            tokio::spawn(async move {
                let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await else {
                    return;
                };
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                    _ = cuts.changed() => {}
                }
            });
        }
    });
    (port, cut)
}
