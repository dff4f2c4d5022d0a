//! The page of `ludus serve` driven in a real browser (Chromium, through its WebDriver): games of
//! Oware and Backgammon played by clicking on the board, the computer's answer, undo, a hint, a
//! record replayed step by step, and a broken rules file's located errors. A screenshot of each board is kept in
//! `target/tmp/browser/`. Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them); skipped, saying so, where they are missing.

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
        "document.querySelector('#log li:last-child').textContent === 'undo 2'",
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
        "document.querySelector('#log li:last-child').textContent === 'undo 3'",
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
