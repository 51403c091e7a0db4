//! How each game is drawn, in a build with the window: its renderer, and what a screenshot may
//! add to a frame.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, bail};
use fixstep_audio::DeviceSettings;
use fixstep_netplay_view::NetGame;
use fixstep_present::FrameOf;
use fixstep_town_view::DrawFrame;
use fixstep_town_view::Town;
use fixstep_town_view::sound::{Sounds, TownSoundscape};
use fixstep_window::settings::Volumes;
use fixstep_window::{FrameSound, Silent};

/// What a renderer is made from besides the GPU: where the assets are, the content file it
/// was loaded from, and how characters are posed.
#[derive(Clone, Debug)]
pub struct RenderSetup {
    /// The assets root (fonts, images, rigs).
    pub assets: PathBuf,
    /// The content file (a level).
    pub content_file: PathBuf,
    /// Pose skinned characters on the CPU instead of the GPU.
    pub cpu_skinning: bool,
}

/// How a game is drawn in a window or a picture.
pub trait Drawn: NetGame {
    /// Its renderer.
    type Renderer: fixstep_gpu::FrameRenderer<Frame = FrameOf<Self>>;

    /// Its renderer of `content` into targets of `format` and `size`.
    ///
    /// # Errors
    ///
    /// Assets it needs that do not load (a font, a rig).
    fn renderer(
        ctx: &fixstep_gpu::GpuContext,
        format: fixstep_gpu::wgpu::TextureFormat,
        size: (u32, u32),
        content: &Arc<Self::Content>,
        setup: &RenderSetup,
    ) -> Result<Self::Renderer>;

    /// Changes a screenshot's frame as asked: the time of day drawn (a fraction of a day),
    /// and a crowd of extra characters for the frame benchmark.
    ///
    /// # Errors
    ///
    /// If the game has no such thing to change.
    fn dress(frame: &mut FrameOf<Self>, time: Option<f32>, crowd: usize) -> Result<()>;

    /// Moves a benchmark's frame on by a frame, as a real frame does (its animations).
    fn bench_step(frame: &mut FrameOf<Self>);

    /// What a frame holds, in a few words, for a screenshot's line and a benchmark's.
    fn describe_frame(frame: &FrameOf<Self>) -> String;

    /// Its sound in the window, hearing each frame drawn, from the sounds under `assets`.
    /// A game without sounds is silent.
    fn sound(_content: &Arc<Self::Content>, _assets: &Path) -> Box<dyn FrameSound<FrameOf<Self>>> {
        Box::new(Silent)
    }
}

/// The town's soundscape, played on the sound card (silent, and saying why once, without
/// one), as the window's sound.
struct TownSound(TownSoundscape);

impl FrameSound<DrawFrame> for TownSound {
    fn frame(&mut self, frame: &DrawFrame, seconds: f32) {
        self.0.update(frame, seconds);
    }

    fn click(&mut self) {
        self.0.click();
    }

    fn set_volumes(&mut self, volumes: &Volumes) {
        let share = |percent: u8| f32::from(percent) / 100.0;
        self.0.set_volumes(share(volumes.master), share(volumes.effects), share(volumes.ambience));
    }

    fn stop(&mut self) {
        self.0.hush();
    }
}

impl Drawn for Town {
    type Renderer = fixstep_town_view::gpu::TownRenderer;

    fn renderer(
        ctx: &fixstep_gpu::GpuContext,
        format: fixstep_gpu::wgpu::TextureFormat,
        (width, height): (u32, u32),
        level: &Arc<Self::Content>,
        setup: &RenderSetup,
    ) -> Result<Self::Renderer> {
        use fixstep_town_view::gpu::{RendererSetup, TownRenderer};
        let rig = fixstep_town_view::assets::load_rig(&setup.assets, &setup.content_file, level)?;
        let mut renderer = TownRenderer::new(
            ctx,
            &RendererSetup {
                level: Arc::clone(level),
                rig: Arc::new(rig),
                assets: setup.assets.clone(),
                format,
                width,
                height,
            },
        )?;
        if setup.cpu_skinning {
            renderer.skinning = fixstep_gpu::SkinningPath::Cpu;
        }
        Ok(renderer)
    }

    fn dress(frame: &mut FrameOf<Self>, time: Option<f32>, crowd: usize) -> Result<()> {
        if let Some(time) = time {
            frame.time_of_day = time;
        }
        fixstep_town_view::shot::add_crowd(frame, crowd);
        Ok(())
    }

    fn bench_step(frame: &mut FrameOf<Self>) {
        for c in &mut frame.characters {
            c.sample.frame += TOWN_BENCH_FRAME_STEP;
        }
    }

    fn describe_frame(frame: &FrameOf<Self>) -> String {
        format!("{} characters", frame.characters.len())
    }

    fn sound(level: &Arc<Self::Content>, assets: &Path) -> Box<dyn FrameSound<FrameOf<Self>>> {
        match Sounds::load(assets) {
            Ok(sounds) => Box::new(TownSound(TownSoundscape::open(
                level,
                &sounds,
                &DeviceSettings::from_env(),
            ))),
            Err(e) => {
                // The game is worth playing without its sounds.
                tracing::warn!("sound: off: {e}");
                Box::new(Silent)
            }
        }
    }
}

/// How far a town benchmark frame moves each character's animation, frames: a 60 Hz frame of
/// a walk's clip.
const TOWN_BENCH_FRAME_STEP: f32 = 0.4;

impl Drawn for fixstep_arena_view::Arena {
    type Renderer = fixstep_gpu::shapes::ShapeRenderer;

    fn renderer(
        ctx: &fixstep_gpu::GpuContext,
        format: fixstep_gpu::wgpu::TextureFormat,
        size: (u32, u32),
        layout: &Arc<Self::Content>,
        setup: &RenderSetup,
    ) -> Result<Self::Renderer> {
        use fixstep_present::shapes::{ShapeGame, scenery_of};
        let scenery = scenery_of::<Self>(layout);
        Ok(fixstep_gpu::shapes::ShapeRenderer::new(
            ctx,
            format,
            size,
            &setup.assets,
            &scenery,
            Self::kinds(),
        )?)
    }

    fn dress(_frame: &mut FrameOf<Self>, time: Option<f32>, crowd: usize) -> Result<()> {
        if time.is_some() {
            unsupported("arena", "time of day")?;
        }
        if crowd > 0 {
            unsupported("arena", "crowd of characters")?;
        }
        Ok(())
    }

    fn bench_step(_frame: &mut FrameOf<Self>) {}

    fn describe_frame(frame: &FrameOf<Self>) -> String {
        format!("{} shapes", frame.shapes.len())
    }
}

/// Refuses a screenshot option the game has nothing for.
pub fn unsupported(game: &str, option: &str) -> Result<()> {
    bail!("the {game} has no {option} to draw")
}
