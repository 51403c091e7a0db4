//! Skeletal animation on the CPU: the skeleton and keyframes of `assets/animations/*.ron`,
//! and the bone matrices of a clip at a fractional frame.
//!
//! The file's keys are sparse (a few per bone); loading expands them into one pose per bone
//! per frame, which is also what the GPU skinning path uploads. Posing at a fractional frame
//! then blends the two whole frames around it: bone moves lerped, rotations slerped, a looping
//! clip's last frame into its first, a one-shot clip held at its last frame.

use std::path::Path;

use glam::{EulerRot, Mat4, Quat, Vec3};
use serde::Deserialize;

/// Why a rig file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    /// The file cannot be read, is not a file, or is over the limit of a rig.
    #[error(transparent)]
    Io(#[from] fixstep_runtime::file::ReadError),
    /// The file is not valid RON of the rig's shape.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The rig's content is inconsistent.
    #[error("{file}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

#[derive(Debug, Deserialize)]
struct RigFile {
    skeleton: Vec<BoneEntry>,
    clips: Vec<ClipEntry>,
}

#[derive(Debug, Deserialize)]
struct BoneEntry {
    name: String,
    parent: Option<String>,
    joint: (f32, f32, f32),
}

#[derive(Debug, Deserialize)]
struct ClipEntry {
    name: String,
    frames: u32,
    #[serde(rename = "fps")]
    _fps: u32,
    looping: bool,
    #[serde(default)]
    keys: Vec<KeyEntry>,
}

#[derive(Debug, Deserialize)]
struct KeyEntry {
    bone: String,
    frame: u32,
    rotate: Option<(f32, f32, f32)>,
    translate: Option<(f32, f32, f32)>,
}

/// One bone of the skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Its name.
    pub name: String,
    /// Its parent, listed before it.
    pub parent: Option<usize>,
    /// Its joint in the bind pose, in the character's frame (x forward, y up, z right).
    pub joint: Vec3,
}

/// A bone's local motion at one whole frame: a move of its joint and a rotation about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneKey {
    /// Move of the joint, metres.
    pub translate: Vec3,
    /// Rotation about the joint.
    pub rotate: Quat,
}

/// One clip, a pose per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipAnim {
    /// Its name.
    pub name: String,
    /// Number of frames.
    pub frames: u32,
    /// Whether its last frame flows into its first.
    pub looping: bool,
    /// `frames × bones` keys, frame-major.
    pub keys: Vec<BoneKey>,
}

/// A rig: the humanoid's clip file is 8 kB. Its keys are frames times bones, so the file
/// bounds the memory the rig takes.
pub const RIG_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("rig", 1_000_000);

/// A skeleton and its clips.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    /// The bones, parents first.
    pub bones: Vec<Bone>,
    /// The clips, in file order (the same order as the rules' clips).
    pub clips: Vec<ClipAnim>,
}

impl Rig {
    /// Loads a rig file.
    ///
    /// # Errors
    ///
    /// An unreadable file, bad RON, or inconsistent content, naming the file.
    pub fn load(path: &Path) -> Result<Self, RigError> {
        let file = path.display().to_string();
        let text = fixstep_runtime::file::read_text(path, RIG_FILE)?;
        Self::from_ron(&text, &file)
    }

    /// Reads a rig from RON text; `file` names it in errors.
    ///
    /// # Errors
    ///
    /// Bad RON or inconsistent content.
    pub fn from_ron(text: &str, file: &str) -> Result<Self, RigError> {
        // Keys write `rotate: (..)` rather than `rotate: Some((..))`.
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let parsed: RigFile = options.from_str(text).map_err(|e| RigError::Syntax {
            file: file.to_owned(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        let invalid = |message: String| RigError::Invalid { file: file.to_owned(), message };
        let mut bones: Vec<Bone> = Vec::with_capacity(parsed.skeleton.len());
        for entry in &parsed.skeleton {
            if bones.iter().any(|b| b.name == entry.name) {
                return Err(invalid(format!("bone `{}` is listed twice", entry.name)));
            }
            let parent = match &entry.parent {
                None => None,
                Some(name) => {
                    Some(bones.iter().position(|b| &b.name == name).ok_or_else(|| {
                        invalid(format!(
                            "bone `{}` names parent `{name}`, which is not listed before it",
                            entry.name
                        ))
                    })?)
                }
            };
            let (x, y, z) = entry.joint;
            bones.push(Bone { name: entry.name.clone(), parent, joint: Vec3::new(x, y, z) });
        }
        if bones.is_empty() {
            return Err(invalid("the skeleton has no bones".to_owned()));
        }
        let clips = parsed
            .clips
            .iter()
            .map(|clip| expand_clip(clip, &bones).map_err(invalid))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self { bones, clips })
    }

    /// The index of the clip named `name`.
    #[must_use]
    pub fn clip_index(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name == name)
    }

    /// Bone `bone`'s local key of `clip` at fractional `frame`: the two whole frames around it
    /// blended, wrapping a looping clip and holding a one-shot clip at its end.
    #[must_use]
    pub fn local_key(&self, clip: &ClipAnim, frame: f32, bone: usize) -> BoneKey {
        let frames = clip.frames.max(1);
        let bones = self.bones.len();
        let (i, j, t) = frame_pair(frame, frames, clip.looping);
        let a = clip.keys[i as usize * bones + bone];
        let b = clip.keys[j as usize * bones + bone];
        BoneKey { translate: a.translate.lerp(b.translate, t), rotate: a.rotate.slerp(b.rotate, t) }
    }

    /// The skinning matrices of `clip` at fractional `frame`, one per bone, written into `out`:
    /// each takes a point of the bind pose to where the bone carries it.
    pub fn pose(&self, clip: usize, frame: f32, out: &mut Vec<Mat4>) {
        out.clear();
        let Some(anim) = self.clips.get(clip) else {
            out.resize(self.bones.len(), Mat4::IDENTITY);
            return;
        };
        for (index, bone) in self.bones.iter().enumerate() {
            let key = self.local_key(anim, frame, index);
            // About the joint: move it, then turn the bind pose around it.
            let local = Mat4::from_translation(bone.joint + key.translate)
                * Mat4::from_quat(key.rotate)
                * Mat4::from_translation(-bone.joint);
            let parent = bone.parent.map_or(Mat4::IDENTITY, |p| out[p]);
            out.push(parent * local);
        }
    }
}

/// The two whole frames around `frame` and how far between them it is.
#[must_use]
pub fn frame_pair(frame: f32, frames: u32, looping: bool) -> (u32, u32, f32) {
    let last = frames.saturating_sub(1);
    if looping {
        let f = frame.rem_euclid(frames as f32);
        let i = (f.floor() as u32).min(last);
        (i, (i + 1) % frames.max(1), f - i as f32)
    } else {
        let f = frame.clamp(0.0, last as f32);
        let i = (f.floor() as u32).min(last);
        (i, (i + 1).min(last), f - i as f32)
    }
}

/// One pose per bone per frame from a clip's sparse keys.
fn expand_clip(clip: &ClipEntry, bones: &[Bone]) -> Result<ClipAnim, String> {
    if clip.frames == 0 {
        return Err(format!("clip `{}` has no frames", clip.name));
    }
    let mut rotations: Vec<Vec<(u32, Quat)>> = vec![Vec::new(); bones.len()];
    let mut moves: Vec<Vec<(u32, Vec3)>> = vec![Vec::new(); bones.len()];
    for key in &clip.keys {
        let bone = bones.iter().position(|b| b.name == key.bone).ok_or_else(|| {
            format!(
                "clip `{}` has a key for bone `{}`, which the skeleton lacks",
                clip.name, key.bone
            )
        })?;
        if key.frame >= clip.frames {
            return Err(format!(
                "clip `{}`: a key of `{}` is at frame {}, past its {} frames",
                clip.name, key.bone, key.frame, clip.frames
            ));
        }
        if let Some((x, y, z)) = key.rotate {
            let q = Quat::from_euler(EulerRot::ZYX, z.to_radians(), y.to_radians(), x.to_radians());
            rotations[bone].push((key.frame, q));
        }
        if let Some((x, y, z)) = key.translate {
            moves[bone].push((key.frame, Vec3::new(x, y, z)));
        }
    }
    let mut keys = Vec::with_capacity(clip.frames as usize * bones.len());
    for frame in 0..clip.frames {
        for bone in 0..bones.len() {
            let rotate = sample_channel(
                &mut rotations[bone],
                frame,
                clip.frames,
                clip.looping,
                Quat::IDENTITY,
                Quat::slerp,
            );
            let translate = sample_channel(
                &mut moves[bone],
                frame,
                clip.frames,
                clip.looping,
                Vec3::ZERO,
                Vec3::lerp,
            );
            keys.push(BoneKey { translate, rotate });
        }
    }
    Ok(ClipAnim { name: clip.name.clone(), frames: clip.frames, looping: clip.looping, keys })
}

/// A channel's value at a whole frame, between its keys around it (a looping clip's keys
/// wrap around its end).
fn sample_channel<T: Copy>(
    keys: &mut [(u32, T)],
    frame: u32,
    frames: u32,
    looping: bool,
    rest: T,
    blend: fn(T, T, f32) -> T,
) -> T {
    keys.sort_by_key(|k| k.0);
    let (Some(&first), Some(&last)) = (keys.first(), keys.last()) else { return rest };
    let at = |k: (u32, T)| (i64::from(k.0), k.1);
    let frame = i64::from(frame);
    let period = i64::from(frames);
    let previous = keys.iter().rev().find(|k| i64::from(k.0) <= frame).copied().map(at);
    let next = keys.iter().find(|k| i64::from(k.0) > frame).copied().map(at);
    let (a, b) = match (previous, next) {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) if looping => (a, (i64::from(first.0) + period, first.1)),
        (None, Some(b)) if looping => ((i64::from(last.0) - period, last.1), b),
        (Some((_, value)), None) | (None, Some((_, value))) => return value,
        (None, None) => return rest,
    };
    let span = (b.0 - a.0).max(1) as f32;
    blend(a.1, b.1, (frame - a.0) as f32 / span)
}
