; ModuleID = 'mp_agent.cu'
source_filename = "mp_agent.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @producer(ptr noundef writeonly captures(none) %0, ptr noundef %1) local_unnamed_addr #0 !dbg !15 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !19
  %4 = icmp eq i32 %3, 0, !dbg !23
  br i1 %4, label %5, label %6, !dbg !23

5:                                                ; preds = %2
  store i32 42, ptr %0, align 4, !dbg !24, !tbaa !10
  tail call void asm sideeffect "st.release.gpu.b32 [$0],$1;", "l,r,~{memory}"(ptr %1, i32 1) #2, !dbg !25, !srcloc !44
  br label %6, !dbg !45

6:                                                ; preds = %5, %2
  ret void, !dbg !46
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @consumer(ptr noundef readonly captures(none) %0, ptr noundef %1, ptr noundef writeonly captures(none) %2) local_unnamed_addr #0 !dbg !47 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !48
  %5 = icmp eq i32 %4, 0, !dbg !50
  br i1 %5, label %6, label %11, !dbg !50

6:                                                ; preds = %3, %6
  %7 = tail call i32 asm sideeffect "ld.acquire.gpu.b32 $0,[$1];", "=r,l,~{memory}"(ptr %1) #2, !dbg !51, !srcloc !66
  %8 = icmp eq i32 %7, 1, !dbg !67
  br i1 %8, label %9, label %6, !dbg !68, !llvm.loop !69

9:                                                ; preds = %6
  %10 = load i32, ptr %0, align 4, !dbg !73, !tbaa !10
  store i32 %10, ptr %2, align 4, !dbg !74, !tbaa !10
  br label %11, !dbg !75

11:                                               ; preds = %9, %3
  ret void, !dbg !76
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
!7 = !DIFile(filename: "mp_agent.cu", directory: ".")
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{i32 2, i32 0}
!15 = distinct !DISubprogram(name: "producer", scope: !16, file: !16, line: 12, type: !17, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!16 = !DIFile(filename: "./mp.cu", directory: ".")
!17 = !DISubroutineType(types: !18)
!18 = !{}
!19 = !DILocation(line: 53, column: 27, scope: !20, inlinedAt: !22)
!20 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !21, file: !21, line: 53, type: !17, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!21 = !DIFile(filename: "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h", directory: "")
!22 = distinct !DILocation(line: 13, column: 7, scope: !15)
!23 = !DILocation(line: 13, column: 19, scope: !15)
!24 = !DILocation(line: 14, column: 11, scope: !15)
!25 = !DILocation(line: 941, column: 3, scope: !26, inlinedAt: !28)
!26 = distinct !DISubprogram(name: "__cuda_atomic_store<unsigned int>", scope: !27, file: !27, line: 939, type: !17, scopeLine: 941, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!27 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_generated.h", directory: "")
!28 = distinct !DILocation(line: 1172, column: 5, scope: !29, inlinedAt: !30)
!29 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)1> >", scope: !27, file: !27, line: 1171, type: !17, scopeLine: 1171, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!30 = distinct !DILocation(line: 861, column: 32, scope: !31, inlinedAt: !32)
!31 = distinct !DISubprogram(name: "__cuda_atomic_store_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_store<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_device_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_device_tag>", scope: !27, file: !27, line: 857, type: !17, scopeLine: 857, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!32 = distinct !DILocation(line: 1184, column: 3, scope: !33, inlinedAt: !34)
!33 = distinct !DISubprogram(name: "__atomic_store_cuda<int, cuda::std::__4::__thread_scope_device_tag>", scope: !27, file: !27, line: 1176, type: !17, scopeLine: 1177, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!34 = distinct !DILocation(line: 319, column: 3, scope: !35, inlinedAt: !37)
!35 = distinct !DISubprogram(name: "__atomic_store_n_cuda<int, cuda::std::__4::__thread_scope_device_tag>", scope: !36, file: !36, line: 317, type: !17, scopeLine: 318, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!36 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/functions/cuda_ptx_derived.h", directory: "")
!37 = distinct !DILocation(line: 95, column: 6, scope: !38, inlinedAt: !40)
!38 = distinct !DISubprogram(name: "__atomic_store_dispatch<const cuda::std::__4::__atomic_ref_storage<int>, int, cuda::std::__4::__thread_scope_device_tag, 0>", scope: !39, file: !39, line: 91, type: !17, scopeLine: 92, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!39 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/types/base.h", directory: "")
!40 = distinct !DILocation(line: 80, column: 3, scope: !41, inlinedAt: !43)
!41 = distinct !DISubprogram(name: "store", scope: !42, file: !42, line: 80, type: !17, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!42 = !DIFile(filename: "/usr/local/cuda/include/cccl/cuda/std/__atomic/api/reference.h", directory: "")
!43 = distinct !DILocation(line: 18, column: 44, scope: !15)
!44 = !{i64 9199264}
!45 = !DILocation(line: 20, column: 3, scope: !15)
!46 = !DILocation(line: 21, column: 1, scope: !15)
!47 = distinct !DISubprogram(name: "consumer", scope: !16, file: !16, line: 23, type: !17, scopeLine: 23, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!48 = !DILocation(line: 53, column: 27, scope: !20, inlinedAt: !49)
!49 = distinct !DILocation(line: 24, column: 7, scope: !47)
!50 = !DILocation(line: 24, column: 19, scope: !47)
!51 = !DILocation(line: 287, column: 3, scope: !52, inlinedAt: !53)
!52 = distinct !DISubprogram(name: "__cuda_atomic_load<unsigned int>", scope: !27, file: !27, line: 285, type: !17, scopeLine: 287, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!53 = distinct !DILocation(line: 830, column: 5, scope: !54, inlinedAt: !55)
!54 = distinct !DISubprogram(name: "operator()<cuda::std::__4::integral_constant<cuda::std::__4::__atomic_cuda_memorder, (cuda::std::__4::__atomic_cuda_memorder)2> >", scope: !27, file: !27, line: 829, type: !17, scopeLine: 829, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!55 = distinct !DILocation(line: 103, column: 32, scope: !56, inlinedAt: !57)
!56 = distinct !DISubprogram(name: "__cuda_atomic_load_memory_order_dispatch<cuda::std::__4::__cuda_atomic_bind_load<unsigned int, cuda::std::__4::__atomic_cuda_operand_tag<(cuda::std::__4::__atomic_cuda_operand)3, 32UL>, cuda::std::__4::__thread_scope_device_tag, cuda::std::__4::integral_constant<bool, false> >, cuda::std::__4::__thread_scope_device_tag>", scope: !27, file: !27, line: 97, type: !17, scopeLine: 97, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!57 = distinct !DILocation(line: 842, column: 3, scope: !58, inlinedAt: !59)
!58 = distinct !DISubprogram(name: "__atomic_load_cuda<int, cuda::std::__4::__thread_scope_device_tag>", scope: !27, file: !27, line: 834, type: !17, scopeLine: 835, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!59 = distinct !DILocation(line: 305, column: 3, scope: !60, inlinedAt: !61)
!60 = distinct !DISubprogram(name: "__atomic_load_n_cuda<int, cuda::std::__4::__thread_scope_device_tag>", scope: !36, file: !36, line: 302, type: !17, scopeLine: 303, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!61 = distinct !DILocation(line: 106, column: 13, scope: !62, inlinedAt: !63)
!62 = distinct !DISubprogram(name: "__atomic_load_dispatch<cuda::std::__4::__atomic_ref_storage<int>, cuda::std::__4::__thread_scope_device_tag, 0>", scope: !39, file: !39, line: 101, type: !17, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!63 = distinct !DILocation(line: 80, column: 3, scope: !64, inlinedAt: !65)
!64 = distinct !DISubprogram(name: "load", scope: !42, file: !42, line: 80, type: !17, scopeLine: 80, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !6)
!65 = distinct !DILocation(line: 25, column: 51, scope: !47)
!66 = !{i64 9156118}
!67 = !DILocation(line: 25, column: 84, scope: !47)
!68 = !DILocation(line: 25, column: 5, scope: !47)
!69 = distinct !{!69, !68, !70, !71, !72}
!70 = !DILocation(line: 26, column: 5, scope: !47)
!71 = !{!"llvm.loop.mustprogress"}
!72 = !{!"llvm.loop.unroll.disable"}
!73 = !DILocation(line: 27, column: 12, scope: !47)
!74 = !DILocation(line: 27, column: 10, scope: !47)
!75 = !DILocation(line: 28, column: 3, scope: !47)
!76 = !DILocation(line: 29, column: 1, scope: !47)
