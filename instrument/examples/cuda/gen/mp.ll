; ModuleID = 'mp.cu'
source_filename = "mp.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @producer(ptr noundef writeonly captures(none) %0, ptr noundef %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !18
  %4 = icmp eq i32 %3, 0, !dbg !22
  br i1 %4, label %5, label %6, !dbg !22

5:                                                ; preds = %2
  store i32 42, ptr %0, align 4, !dbg !23, !tbaa !10
  tail call void asm sideeffect "st.release.sys.b32 [$0],$1;", "l,r,~{memory}"(ptr %1, i32 1) #2, !dbg !24, !srcloc !43
  br label %6, !dbg !44

6:                                                ; preds = %5, %2
  ret void, !dbg !45
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @consumer(ptr noundef readonly captures(none) %0, ptr noundef %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !46 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !47
  %5 = icmp eq i32 %4, 0, !dbg !49
  br i1 %5, label %6, label %11, !dbg !49

6:                                                ; preds = %3, %6
  %7 = tail call i32 asm sideeffect "ld.acquire.sys.b32 $0,[$1];", "=r,l,~{memory}"(ptr %1) #2, !dbg !50, !srcloc !65
  %8 = icmp eq i32 %7, 1, !dbg !66
  br i1 %8, label %9, label %6, !dbg !67, !llvm.loop !68

9:                                                ; preds = %6
  %10 = load i32, ptr %0, align 4, !dbg !72, !tbaa !10
  store i32 %10, ptr %2, align 4, !dbg !73, !tbaa !10
  br label %11, !dbg !74

11:                                               ; preds = %9, %3
  ret void, !dbg !75
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.dbg.cu = !{!6}
!llvm.ident = !{!8, !9}
!llvm.errno.tbaa = !{!10}
!nvvmir.version = !{!14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !7, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!7 = !DIFile(filename: "mp.cu", directory: ".")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "producer", scope: !7, file: !7, line: 12, type: !16, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!20 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 13, column: 7, scope: !15)
!22 = !DILocation(line: 13, column: 19, scope: !15)
!23 = !DILocation(line: 14, column: 11, scope: !15)
!24 = !DILocation(line: 945, column: 3, scope: !25, inlinedAt: !27)
!25 = distinct !DISubprogram(name: "__cuda_atomic_store<unsigned int>", scope: !26, file: !26, line: 943, type: !16, scopeLine: 945, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!26 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h", directory: "")
!27 = distinct !DILocation(line: 1172, column: 5, scope: !28, inlinedAt: !29)
!28 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)1> >", scope: !26, file: !26, line: 1171, type: !16, scopeLine: 1171, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!29 = distinct !DILocation(line: 861, column: 32, scope: !30, inlinedAt: !31)
!30 = distinct !DISubprogram(name: "__cuda_atomic_store_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_store<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !26, file: !26, line: 857, type: !16, scopeLine: 857, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!31 = distinct !DILocation(line: 1184, column: 3, scope: !32, inlinedAt: !33)
!32 = distinct !DISubprogram(name: "__atomic_store_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !26, file: !26, line: 1176, type: !16, scopeLine: 1177, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!33 = distinct !DILocation(line: 319, column: 3, scope: !34, inlinedAt: !36)
!34 = distinct !DISubprogram(name: "__atomic_store_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !35, file: !35, line: 317, type: !16, scopeLine: 318, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!35 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h", directory: "")
!36 = distinct !DILocation(line: 95, column: 6, scope: !37, inlinedAt: !39)
!37 = distinct !DISubprogram(name: "__atomic_store_dispatch<const cuda::std::__4::__atomic_ref_storage<int>, int, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !38, file: !38, line: 91, type: !16, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!38 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/types/base.h", directory: "")
!39 = distinct !DILocation(line: 80, column: 3, scope: !40, inlinedAt: !42)
!40 = distinct !DISubprogram(name: "store", scope: !41, file: !41, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!41 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/api/reference.h", directory: "")
!42 = distinct !DILocation(line: 18, column: 44, scope: !15)
!43 = !{i64 9199348}
!44 = !DILocation(line: 20, column: 3, scope: !15)
!45 = !DILocation(line: 21, column: 1, scope: !15)
!46 = distinct !DISubprogram(name: "consumer", scope: !7, file: !7, line: 23, type: !16, scopeLine: 23, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!47 = !DILocation(line: 53, column: 27, scope: !19, inlinedAt: !48)
!48 = distinct !DILocation(line: 24, column: 7, scope: !46)
!49 = !DILocation(line: 24, column: 19, scope: !46)
!50 = !DILocation(line: 291, column: 3, scope: !51, inlinedAt: !52)
!51 = distinct !DISubprogram(name: "__cuda_atomic_load<unsigned int>", scope: !26, file: !26, line: 289, type: !16, scopeLine: 291, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!52 = distinct !DILocation(line: 830, column: 5, scope: !53, inlinedAt: !54)
!53 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)2> >", scope: !26, file: !26, line: 829, type: !16, scopeLine: 829, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!54 = distinct !DILocation(line: 103, column: 32, scope: !55, inlinedAt: !56)
!55 = distinct !DISubprogram(name: "__cuda_atomic_load_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_load<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_system_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_system_tag>", scope: !26, file: !26, line: 97, type: !16, scopeLine: 97, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!56 = distinct !DILocation(line: 842, column: 3, scope: !57, inlinedAt: !58)
!57 = distinct !DISubprogram(name: "__atomic_load_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !26, file: !26, line: 834, type: !16, scopeLine: 835, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!58 = distinct !DILocation(line: 305, column: 3, scope: !59, inlinedAt: !60)
!59 = distinct !DISubprogram(name: "__atomic_load_n_cuda<int, cuda::std::__4::__thread_scope_system_tag>", scope: !35, file: !35, line: 302, type: !16, scopeLine: 303, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!60 = distinct !DILocation(line: 106, column: 13, scope: !61, inlinedAt: !62)
!61 = distinct !DISubprogram(name: "__atomic_load_dispatch<cuda::std::__4::__atomic_ref_storage<int>, cuda::std::__4::__thread_scope_system_tag, 0>", scope: !38, file: !38, line: 101, type: !16, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!62 = distinct !DILocation(line: 80, column: 3, scope: !63, inlinedAt: !64)
!63 = distinct !DISubprogram(name: "load", scope: !41, file: !41, line: 80, type: !16, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!64 = distinct !DILocation(line: 25, column: 51, scope: !46)
!65 = !{i64 9156208}
!66 = !DILocation(line: 25, column: 84, scope: !46)
!67 = !DILocation(line: 25, column: 5, scope: !46)
!68 = distinct !{!68, !67, !69, !70, !71}
!69 = !DILocation(line: 26, column: 5, scope: !46)
!70 = !{!"llvm.loop.mustprogress"}
!71 = !{!"llvm.loop.unroll.disable"}
!72 = !DILocation(line: 27, column: 12, scope: !46)
!73 = !DILocation(line: 27, column: 10, scope: !46)
!74 = !DILocation(line: 28, column: 3, scope: !46)
!75 = !DILocation(line: 29, column: 1, scope: !46)
