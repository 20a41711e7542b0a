//! Analyses in the background, so the server keeps answering while a large schema is
//! checked. Jobs queued for a document are replaced by newer ones before they start: a
//! burst of edits costs one analysis of the latest text, not one per keystroke.

use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

use blinkblox_schema::CheckSettings;
use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_types::Url;

use crate::analysis::{Analysis, analyze};

pub struct Job {
    pub uri: Url,
    pub version: i32,
    pub path: PathBuf,
    pub text: Arc<String>,
    pub settings: CheckSettings,
}

pub struct Done {
    pub uri: Url,
    pub version: i32,
    pub analysis: Arc<Analysis>,
}

/// What a job came to: its analysis, or the document whose analysis failed (reported to
/// the editor's log by the server, which keeps answering).
pub enum Finished {
    Done(Done),
    Failed(Url),
}

pub struct Worker {
    /// `None` when the system would not start the thread: the server then analyses in its
    /// own thread.
    jobs: Option<Sender<Job>>,
    pub results: Receiver<Finished>,
}

impl Worker {
    pub fn start() -> Worker {
        let (jobs, job_receiver) = unbounded::<Job>();
        let (result_sender, results) = unbounded();
        let started = thread::Builder::new()
            .name("blinkblox-lsp-analysis".to_string())
            .spawn(move || run(&job_receiver, &result_sender));
        Worker {
            jobs: started.is_ok().then_some(jobs),
            results,
        }
    }

    /// Queues a job; gives it back when there is no thread to run it.
    pub fn submit(&self, job: Job) -> Option<Job> {
        match &self.jobs {
            Some(jobs) => jobs.send(job).err().map(|returned| returned.into_inner()),
            None => Some(job),
        }
    }
}

fn run(jobs: &Receiver<Job>, results: &Sender<Finished>) {
    while let Ok(first) = jobs.recv() {
        let mut latest = vec![first];
        while let Ok(job) = jobs.try_recv() {
            match latest.iter_mut().find(|queued| queued.uri == job.uri) {
                Some(stale) => *stale = job,
                None => latest.push(job),
            }
        }
        for job in latest {
            let analysis = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                analyze(&job.path, &job.uri, &job.text, &job.settings)
            }));
            let finished = match analysis {
                Ok(analysis) => Finished::Done(Done {
                    uri: job.uri,
                    version: job.version,
                    analysis: Arc::new(analysis),
                }),
                Err(_) => Finished::Failed(job.uri),
            };
            if results.send(finished).is_err() {
                return;
            }
        }
    }
}
