//! The wasm backend in a browser: `examples/wasm-browser/index.html`
//! imports the loader `codegen/src/wasm/postc.mjs`, runs the compiled
//! `examples/axpy.pir` ufunc over typed arrays and writes the result into
//! the page; headless Chromium (installed by `scripts/setup`) loads it from
//! a small static server on the loopback interface (ES modules do not load
//! from `file://`) and prints the DOM, which must hold the values.

mod support;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{driver, root, tmpdir};

/// The browser `scripts/setup` installs (Debian's `chromium`).
const CHROMIUM: &str = "chromium";

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("mjs" | "js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Answers one GET: files under the repository root, `module` at `wasm_path`.
fn serve(stream: TcpStream, module: &Path, wasm_path: &str) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The headers, up to the blank line.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/").split('?').next().unwrap_or("/").to_owned();
    let file: Option<PathBuf> = if target == wasm_path {
        Some(module.to_path_buf())
    } else if target.split('/').any(|c| c == "..") {
        None
    } else {
        let p = root().join(target.trim_start_matches('/'));
        Some(if p.is_dir() { p.join("index.html") } else { p })
    };
    let mut stream = stream;
    match file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((f, body)) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                content_type(&f),
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
        None => {
            let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    }
}

#[test]
fn chromium_is_installed() {
    let out = Command::new(CHROMIUM)
        .arg("--version")
        .output()
        .expect("chromium runs (scripts/setup installs Debian's chromium)");
    assert!(out.status.success());
}

#[test]
fn a_compiled_ufunc_runs_in_headless_chromium() {
    let dir = tmpdir("wasm-browser");
    let module = dir.join("axpy.wasm");
    let out = Command::new(driver())
        .args(["compile", "--backend", "wasm", "--emit", "wasm", "-O2"])
        .arg(root().join("examples/axpy.pir"))
        .arg("-o")
        .arg(&module)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let served = module.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            serve(stream, &served, "/examples/wasm-browser/axpy.wasm");
        }
    });

    let url = format!("http://127.0.0.1:{port}/examples/wasm-browser/index.html");
    let mut child = Command::new(CHROMIUM)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--virtual-time-budget=10000"])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    // A browser that hangs fails the test instead of stalling it.
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("chromium did not finish loading {url}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "chromium failed:\n{}", String::from_utf8_lossy(&out.stderr));
    // 2 * [[1, 2, 3], [4, 5, 6]] + [0.5, 0.25, 0.125]
    assert!(
        dom.contains(r#"<pre id="result">shape 2x3: 2.5 4.25 6.125 8.5 10.25 12.125</pre>"#)
            && dom.contains(r#"<pre id="status">done</pre>"#),
        "the page does not show the computed values:\n{dom}"
    );
}
